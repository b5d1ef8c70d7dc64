// The options of the cpu-perf source, read and checked from the host.
#ifndef PROF_PLUGINS_CPU_PERF_OPTIONS_HPP
#define PROF_PLUGINS_CPU_PERF_OPTIONS_HPP

#include <prof/plugin.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace prof::cpu_perf {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"callstack", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "sample call stacks (--cpu-profiling-callstack); false: the sampled function only"},
    {"kernel", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "add kernel frames where the kernel permits (--kernel-callstack)"},
    {"frequency", PROF_OPTION_INT, "100", 1, 10000, nullptr,
     "samples per second per thread (--cpu-profiling-frequency, --sampling-frequency)"},
    {"period", PROF_OPTION_INT, "0", 0, 1e9, nullptr,
     "CPU-clock nanoseconds between samples; 0 uses frequency (--sample-period)"},
    {"backtrace", PROF_OPTION_ENUM, "fp", 0, -1, "fp,dwarf,none",
     "fp: frame pointers; dwarf: unwind a copy of the user stack with CFI; none (--backtrace)"},
    {"depth", PROF_OPTION_INT, "24", 1, 127, nullptr,
     "most frames per call stack (--sample-backtrace-depth)"},
    {"scope", PROF_OPTION_ENUM, "process-tree", 0, -1, "process-tree,system-wide,none",
     "what to sample: the profiled process tree, every process, or nothing (--sample)"},
    {"switches", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "record context switches: thread states and CPU rows"},
    {"counters", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "hardware counters per thread: comma list of cycles,instructions,cache-misses,"
     "cache-references,branches,branch-misses"},
};

enum class Backtrace { FramePointer, Dwarf, None };
enum class Scope { ProcessTree, SystemWide, None };

/// One requested hardware counter: its option name and PERF_COUNT_HW_* id.
struct HardwareCounter {
  std::string name;
  uint64_t config = 0;
};

struct CpuPerfOptions {
  bool callstack = true;
  bool kernel = false;
  int frequency = 100; ///< Hz, used when period == 0
  uint64_t period = 0; ///< events (ns of CPU clock) between samples, 0: use frequency
  Backtrace backtrace = Backtrace::FramePointer;
  int depth = 24;
  Scope scope = Scope::ProcessTree;
  bool switches = true;
  std::vector<HardwareCounter> counters;
  uint32_t stack_dump_bytes = 16384; ///< user stack copied per sample (dwarf)
};

/// Reads every option; on a bad value logs one error line and returns nullopt.
/// Warnings (a clamped frequency) go to the host log.
std::optional<CpuPerfOptions> read_options(const Host &host);

/// Parses "cycles,instructions,cache-misses"; nullopt and `bad` set on an unknown name.
std::optional<std::vector<HardwareCounter>> parse_counter_list(const std::string &text,
                                                               std::string &bad);

/// An integer from a /proc/sys file, nullopt when unreadable.
std::optional<long long> read_proc_int(const char *path);

} // namespace prof::cpu_perf

#endif
