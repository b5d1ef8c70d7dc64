#include "address_spaces.hpp"

namespace prof::cpu_perf {

int32_t AddressSpaces::module_index(const std::string &path) {
  auto [it, added] = path_index_.emplace(path, static_cast<int32_t>(paths_.size()));
  if (added) paths_.push_back(path);
  return it->second;
}

void AddressSpaces::map(int pid, uint64_t start, uint64_t len, uint64_t pgoff,
                        const std::string &path) {
  if (len == 0) return;
  const uint64_t end = start + len;
  Maps &maps = processes_[pid];
  // A new mapping replaces whatever it overlaps; the overlapped parts of
  // older mappings on either side survive, trimmed.
  auto it = maps.lower_bound(start);
  if (it != maps.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end > start) {
      Mapping tail = prev->second;
      const uint64_t old_end = prev->second.end;
      prev->second.end = start;
      if (old_end > end) {
        tail.pgoff += end - prev->first;
        maps[end] = tail;
      }
    }
  }
  it = maps.lower_bound(start);
  while (it != maps.end() && it->first < end) {
    if (it->second.end > end) {
      Mapping tail = it->second;
      tail.pgoff += end - it->first;
      it = maps.erase(it);
      maps[end] = tail;
      break;
    }
    it = maps.erase(it);
  }
  maps[start] = Mapping{end, pgoff, module_index(path)};
}

void AddressSpaces::fork(int parent, int child) {
  auto found = processes_.find(parent);
  if (found != processes_.end()) processes_[child] = found->second;
}

void AddressSpaces::exec(int pid) { processes_[pid].clear(); }

const AddressSpaces::Mapping *AddressSpaces::find(int pid, uint64_t addr, uint64_t *start) const {
  auto process = processes_.find(pid);
  if (process == processes_.end()) return nullptr;
  const Maps &maps = process->second;
  auto it = maps.upper_bound(addr);
  if (it == maps.begin()) return nullptr;
  --it;
  if (addr >= it->second.end) return nullptr;
  if (start) *start = it->first;
  return &it->second;
}

Location AddressSpaces::locate(int pid, uint64_t addr) const {
  uint64_t start = 0;
  const Mapping *m = find(pid, addr, &start);
  if (m == nullptr) return Location{-1, addr};
  return Location{m->module, addr - start + m->pgoff};
}

uint64_t AddressSpaces::mapping_start(int pid, uint64_t addr) const {
  uint64_t start = 0;
  return find(pid, addr, &start) ? start : 0;
}

} // namespace prof::cpu_perf
