// ABI glue of the python source: option table, vtable and entry symbol.
// Reading the descriptor has no side effects.
#include "python_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"sampling", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "sample Python processes with their Python frames (--python-sampling)"},
    {"native", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "sample the processes that run no CPython too, with native frames: prof sets it when "
     "the application is a Python program and this source samples its whole tree"},
    {"frequency", PROF_OPTION_INT, "100", 1, 10000, nullptr,
     "samples per second of CPU time per thread (--sampling-frequency)"},
    {"depth", PROF_OPTION_INT, "64", 1, 128, nullptr, "most native frames per sampled stack"},
    {"functions", PROF_OPTION_STRING, "", 0, 0, nullptr,
     "Python functions whose calls become annotation ranges (--python-functions-trace): "
     "pytorch, MODULE:QUALNAME or MODULE:* with an optional @DOMAIN, separated by ';'"},
    {"threshold", PROF_OPTION_INT, "0", 0, 3600000000000LL, nullptr,
     "traced calls shorter than this many nanoseconds are left out "
     "(--python-functions-threshold)"},
};

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::python::PythonSource>(
    "python", "1.0.0",
    "CPU samples of CPython 3.11-3.13 processes with the Python frames in their stacks, taken "
    "inside the process on each thread's CPU clock; calls of listed Python functions as "
    "annotation ranges; with native=true, native CPU samples of every other process",
    PROF_SCOPE_PROCESS, kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
