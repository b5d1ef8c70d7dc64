// Python start-up of process-scope plugins: Python programs started under
// prof find prof's sitecustomize first on PYTHONPATH (the folder python-site
// beside the plugins), which imports each module PROF_PYTHON_STARTUP lists
// and calls its start(). A plugin adds its module with run_at_python_startup()
// before the interpreter starts (prof preloads it) and installs the module's
// file into that folder (CMake: prof_python_site_files()).
#ifndef PROF_PYTHON_PYTHON_STARTUP_HPP
#define PROF_PYTHON_PYTHON_STARTUP_HPP

#include <string>
#include <string_view>

namespace prof::python {

/// The folder python-site beside the shared object that holds `anchor` (an
/// address in the calling plugin); "" when that file cannot be found.
std::string python_site_folder(const void *anchor);

/// Makes Python programs this process starts (itself too, before its
/// interpreter starts) import `module` from python-site and call its
/// start(): puts the folder first on PYTHONPATH and adds `module` to
/// PROF_PYTHON_STARTUP, each once. Returns "" or why not.
std::string run_at_python_startup(const void *anchor, std::string_view module);

/// Makes the modules in `folder` (python-site: prof's Python API, `import
/// prof`) importable in Python programs this process starts, without
/// starting any: puts it last on PYTHONPATH, behind the program's own, once.
void offer_python_site(const std::string &folder);

} // namespace prof::python

#endif
