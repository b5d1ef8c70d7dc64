// ABI glue of the osrt source: option table, vtable and entry symbol. Reading
// the descriptor has no side effects: the interposers only time calls once
// an instance has started.
#include "osrt_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"threshold", PROF_OPTION_INT, "1000", 0, 1e12, nullptr,
     "calls shorter than this many ns are not recorded (--osrt-threshold)"},
    {"backtrace-threshold", PROF_OPTION_INT, "80000", 0, 1e12, nullptr,
     "calls at least this many ns long carry a call stack (--osrt-backtrace-threshold)"},
    {"backtrace-depth", PROF_OPTION_INT, "24", 1, 127, nullptr,
     "most frames in a recorded call stack (--osrt-backtrace-depth)"},
    {"python-backtrace", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "call stacks of CPython 3.11-3.13 processes show the Python frames (--python-backtrace)"},
    {"timer", PROF_OPTION_ENUM, "auto", 0, -1, "auto,monotonic",
     "how calls are timed: auto (the TSC where the kernel trusts it) or monotonic (vDSO clock)"},
};

constexpr prof_plugin_descriptor kDescriptor = [] {
  prof_plugin_descriptor d = prof::source_descriptor<prof::osrt::OsrtSource>(
      "osrt", "1.0.0",
      "OS runtime tracing: blocking C library calls (locks, sleeps, io, sockets, waits) of the "
      "profiled process",
      PROF_SCOPE_PROCESS, kOptions, "prof project");
  d.flags = PROF_PLUGIN_INTERPOSES; // its wrappers of read(), pthread_mutex_lock() ...
  return d;
}();

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
