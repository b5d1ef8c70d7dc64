// The memory maps of the sampled processes as the mmap, fork and exec
// records describe them at each moment of the capture, and the translation
// of an address to (module, file offset).
#ifndef PROF_PLUGINS_CPU_PERF_ADDRESS_SPACES_HPP
#define PROF_PLUGINS_CPU_PERF_ADDRESS_SPACES_HPP

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace prof::cpu_perf {

/// Where an address lies: module index (-1: in no mapping) and file offset.
struct Location {
  int32_t module = -1;
  uint64_t offset = 0; ///< file offset in the module; the address itself when module < 0
};

class AddressSpaces {
public:
  /// Records a mapping of `path` at [start, start+len) from file offset pgoff.
  void map(int pid, uint64_t start, uint64_t len, uint64_t pgoff, const std::string &path);
  /// A new process (fork): it starts with a copy of its parent's maps.
  void fork(int parent, int child);
  /// The process replaced its image (exec): its maps start empty.
  void exec(int pid);
  /// The location of `addr` in process `pid` now.
  Location locate(int pid, uint64_t addr) const;
  /// Path of a module index.
  const std::string &module_path(int32_t module) const { return paths_.at(module); }
  size_t module_count() const { return paths_.size(); }
  /// Start address of the mapping that holds `addr` (for [vdso]-like images).
  uint64_t mapping_start(int pid, uint64_t addr) const;

private:
  struct Mapping {
    uint64_t end = 0;
    uint64_t pgoff = 0;
    int32_t module = -1;
  };
  using Maps = std::map<uint64_t, Mapping>; // keyed by start
  int32_t module_index(const std::string &path);
  const Mapping *find(int pid, uint64_t addr, uint64_t *start) const;

  std::unordered_map<int, Maps> processes_;
  std::vector<std::string> paths_;
  std::unordered_map<std::string, int32_t> path_index_;
};

} // namespace prof::cpu_perf

#endif
