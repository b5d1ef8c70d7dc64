// Kernel function names from /proc/kallsyms, when the machine shows them.
#ifndef PROF_PLUGINS_CPU_PERF_KERNEL_SYMBOLS_HPP
#define PROF_PLUGINS_CPU_PERF_KERNEL_SYMBOLS_HPP

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace prof::cpu_perf {

class KernelSymbols {
public:
  /// Reads /proc/kallsyms once; false when it is unreadable or hides addresses.
  bool load();
  /// Reads kallsyms-formatted text (for tests).
  bool load(std::istream &in);
  /// The function containing `addr`, nullptr when unknown.
  const std::string *lookup(uint64_t addr) const;

private:
  struct Symbol {
    uint64_t addr;
    std::string name;
  };
  std::vector<Symbol> symbols_;
  bool loaded_ = false;
};

/// Is `addr` a kernel address (upper half on 64-bit)?
inline bool is_kernel_address(uint64_t addr) { return (addr >> 63) != 0; }

} // namespace prof::cpu_perf

#endif
