// ABI glue of the python source: descriptor (its option table is in the header) and entry symbol.
// Reading the descriptor has no side effects.
#include "python_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::python::PythonSource>(
    "python", "1.0.0",
    "CPU samples of CPython 3.11-3.13 processes with the Python frames in their stacks, taken "
    "inside the process on each thread's CPU clock; calls of listed Python functions as "
    "annotation ranges; with native=true, native CPU samples of every other process",
    PROF_SCOPE_PROCESS, prof::python::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
