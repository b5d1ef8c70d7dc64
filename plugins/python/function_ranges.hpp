// Traced Python functions (--python-functions-trace) as annotation ranges:
// prof's Python module wraps each listed function so that its calls enter and
// leave a named range here (functions/ranges_api.h). The ranges are the
// annotation recorder's push/pop on the calling thread, with category string
// "python" (or "python/DOMAIN"), and they open prof's annotation capture
// ranges. Names live as long as the process: Python keeps its wrappers.
#ifndef PROF_PLUGINS_PYTHON_FUNCTION_RANGES_HPP
#define PROF_PLUGINS_PYTHON_FUNCTION_RANGES_HPP

#include <prof/annotations/annotation_recorder.hpp>
#include <prof/plugin.hpp>

#include <string>

namespace prof::python {

/// Makes Python programs this process starts (itself too, before its
/// interpreter starts) trace `functions`: prof_python_functions runs at
/// their start-up (prof/python/python_startup.hpp) and reads `functions`
/// from PROF_PYTHON_FUNCTIONS. Returns "" or why not.
std::string point_python_at_function_trace(const std::string &functions);

/// Whether `functions` is the option's form: entries "pytorch",
/// "MODULE:QUALNAME" or "MODULE:*", each with an optional "@DOMAIN",
/// separated by ';'. Sets `problem` when not.
bool valid_function_list(const std::string &functions, std::string &problem);

/// Ranges go to `recorder` from now on; nullptr drops them. A replaced
/// recorder must stay allocated: a thread may still be inside it.
void set_function_recorder(annotations::AnnotationRecorder *recorder);

} // namespace prof::python

#endif
