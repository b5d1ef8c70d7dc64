// Turns (module, file offset) locations into function names after the
// capture: each ELF opened once, C++ names demangled, and a readable
// "[unknown] ..." frame for everything that cannot be named.
#ifndef PROF_PLUGINS_CPU_PERF_SYMBOLIZER_HPP
#define PROF_PLUGINS_CPU_PERF_SYMBOLIZER_HPP

#include "elf_module.hpp"
#include "kernel_symbols.hpp"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>

namespace prof::cpu_perf {

/// A C++ name demangled; the name itself when it is not a mangled one.
std::string demangle(const std::string &name);
/// "[unknown] libfoo.so+0x1234" for a module path and a file offset.
std::string unknown_in_module(const std::string &path, uint64_t offset);
/// "[unknown] 0x7f00deadbeef".
std::string unknown_address(uint64_t addr);

class Symbolizer {
public:
  /// The module of `path`, opened once; nullptr when unusable (missing,
  /// deleted, not ELF, anonymous). "[vdso]" reads this process's vDSO.
  ElfModule *module(const std::string &path);
  /// The frame name of `offset` in the module at `path`.
  std::string function(const std::string &path, uint64_t offset);
  /// The frame name of a kernel address ("[kernel]" without kallsyms).
  std::string kernel_function(uint64_t addr);

private:
  std::unordered_map<std::string, std::unique_ptr<ElfModule>> modules_;
  std::map<std::pair<std::string, uint64_t>, std::string> names_;
  KernelSymbols kernel_;
  bool kernel_loaded_ = false;
};

} // namespace prof::cpu_perf

#endif
