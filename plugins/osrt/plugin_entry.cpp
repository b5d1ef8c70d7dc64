// ABI glue of the osrt source: descriptor (its option table is in the header) and entry symbol.
// Reading the descriptor has no side effects: the interposers only time calls once an instance has
// started.
#include "osrt_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = [] {
  prof_plugin_descriptor d = prof::source_descriptor<prof::osrt::OsrtSource>(
      "osrt", "1.0.0",
      "OS runtime tracing: blocking C library calls (locks, sleeps, io, sockets, waits) of the "
      "profiled process",
      PROF_SCOPE_PROCESS, prof::osrt::kOptions, "prof project");
  d.flags = PROF_PLUGIN_INTERPOSES; // its wrappers of read(), pthread_mutex_lock() ...
  return d;
}();

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
