// What a capture's raw records yield once decoded, a batch at a time:
// samples with located frames, thread states, lost records and counter values.
#ifndef PROF_PLUGINS_CPU_PERF_CAPTURE_HPP
#define PROF_PLUGINS_CPU_PERF_CAPTURE_HPP

#include "address_spaces.hpp"
#include "thread_states.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace prof::cpu_perf {

/// One frame: a kernel address, a (module, file offset), or an address in no mapping.
struct Frame {
  int32_t module = -1;
  uint64_t offset = 0; ///< file offset; the address itself when module < 0
  bool kernel = false;
  bool operator<(const Frame &o) const {
    return module != o.module ? module < o.module
                              : offset != o.offset ? offset < o.offset : kernel < o.kernel;
  }
};

struct Sample {
  uint64_t time = 0;
  int32_t pid = 0, tid = 0;
  uint32_t cpu = 0;
  std::vector<Frame> frames; ///< leaf first
};

struct ThreadInfo {
  int32_t pid = 0;
  std::string name;
};

/// A hardware counter's count for one thread (at its exit) or the tree total.
struct CounterValue {
  int32_t pid = 0, tid = 0; ///< tid 0: the whole process tree
  size_t counter = 0;
  uint64_t time = 0;
  uint64_t value = 0;
};

/// Decoded records. Each vector is in time order (states by their end).
struct Capture {
  std::vector<Sample> samples;
  std::vector<StateSlice> states;
  std::vector<CounterValue> counters;
  uint64_t lost_records = 0;
  uint64_t lost_samples = 0;
  uint64_t bad_records = 0;

  /// Appends a later batch.
  void append(Capture &&later);
};

/// Thread names and processes, by tid.
using ThreadTable = std::map<int32_t, ThreadInfo>;

/// What was known before the events were enabled (from /proc).
struct ProcessSnapshot {
  struct Map {
    int32_t pid;
    uint64_t start, len, pgoff;
    std::string path;
  };
  std::vector<Map> maps;
  ThreadTable threads;
};

/// Reads the executable mappings and thread names of `pids` (all of /proc
/// when `pids` is empty).
ProcessSnapshot snapshot_processes(const std::vector<int32_t> &pids);

} // namespace prof::cpu_perf

#endif
