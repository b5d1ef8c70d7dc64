#include "kernel_symbols.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace prof::cpu_perf {

bool KernelSymbols::load() {
  if (loaded_) return !symbols_.empty();
  std::ifstream in("/proc/kallsyms");
  if (!in) {
    loaded_ = true;
    return false;
  }
  return load(in);
}

bool KernelSymbols::load(std::istream &in) {
  loaded_ = true;
  symbols_.clear();
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string addr_text, type, name;
    if (!(fields >> addr_text >> type >> name)) continue;
    if (type != "t" && type != "T" && type != "w" && type != "W") continue;
    const uint64_t addr = std::stoull(addr_text, nullptr, 16);
    if (addr == 0) continue; // kptr_restrict hides them
    symbols_.push_back({addr, name});
  }
  std::sort(symbols_.begin(), symbols_.end(),
            [](const Symbol &a, const Symbol &b) { return a.addr < b.addr; });
  return !symbols_.empty();
}

const std::string *KernelSymbols::lookup(uint64_t addr) const {
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), addr,
                             [](uint64_t a, const Symbol &s) { return a < s.addr; });
  if (it == symbols_.begin() || it == symbols_.end()) return nullptr;
  return &std::prev(it)->name;
}

} // namespace prof::cpu_perf
