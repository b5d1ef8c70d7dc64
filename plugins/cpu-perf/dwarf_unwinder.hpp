// Unwinds a copied user stack (x86-64) with the CFI of the modules it runs
// through (libdw's dwarf_cfi_addrframe), falling back to the frame pointer
// where a module has no CFI.
#ifndef PROF_PLUGINS_CPU_PERF_DWARF_UNWINDER_HPP
#define PROF_PLUGINS_CPU_PERF_DWARF_UNWINDER_HPP

#include "elf_module.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace prof::cpu_perf {

/// Finds the module holding `pc` and its link-time address there.
using ModuleLookup = std::function<ElfModule *(uint64_t pc, uint64_t &vaddr)>;

/// The pcs of the frames (leaf first, at most `max_frames`): the first is the
/// sampled ip, the others return addresses. `regs` are perf's user registers
/// in mask order (AX BX CX DX SI DI BP SP IP R8..R15); `stack` starts at SP.
std::vector<uint64_t> unwind_stack(std::span<const uint64_t> regs, std::span<const uint8_t> stack,
                                   const ModuleLookup &lookup, int max_frames);

} // namespace prof::cpu_perf

#endif
