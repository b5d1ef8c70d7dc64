#include "dwarf_unwinder.hpp"

#include <dwarf.h>
#include <elfutils/libdw.h>

#include <cstdlib>
#include <cstring>
#include <optional>

namespace prof::cpu_perf {
namespace {

constexpr int kDwarfRegs = 17; // rax..r15 and the return address (16)
constexpr int kRsp = 7, kRbp = 6, kRa = 16;

/// Register state of one frame, by DWARF number.
struct Regs {
  uint64_t value[kDwarfRegs]{};
  bool known[kDwarfRegs]{};
};

class StackMemory {
public:
  StackMemory(uint64_t sp, std::span<const uint8_t> bytes) : sp_(sp), bytes_(bytes) {}
  std::optional<uint64_t> read(uint64_t addr) const {
    if (addr < sp_ || addr - sp_ + 8 > bytes_.size()) return std::nullopt;
    uint64_t v;
    std::memcpy(&v, bytes_.data() + (addr - sp_), 8);
    return v;
  }

private:
  uint64_t sp_;
  std::span<const uint8_t> bytes_;
};

/// Evaluates the DWARF expressions libdw hands out for CFA and register rules.
std::optional<uint64_t> evaluate(const Dwarf_Op *ops, size_t n, const Regs &r, uint64_t cfa,
                                 const StackMemory &mem, bool *is_value) {
  uint64_t stack[16];
  size_t depth = 0;
  *is_value = false;
  auto push = [&](uint64_t v) { if (depth < 16) stack[depth++] = v; };
  for (size_t i = 0; i < n; ++i) {
    const Dwarf_Op &op = ops[i];
    const uint8_t a = op.atom;
    if (a == DW_OP_call_frame_cfa) push(cfa);
    else if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
      const int reg = a - DW_OP_breg0;
      if (reg >= kDwarfRegs || !r.known[reg]) return std::nullopt;
      push(r.value[reg] + static_cast<int64_t>(op.number));
    } else if (a == DW_OP_bregx) {
      if (op.number >= kDwarfRegs || !r.known[op.number]) return std::nullopt;
      push(r.value[op.number] + static_cast<int64_t>(op.number2));
    } else if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
      const int reg = a - DW_OP_reg0;
      if (reg >= kDwarfRegs || !r.known[reg]) return std::nullopt;
      *is_value = true;
      return r.value[reg];
    } else if (a == DW_OP_regx) {
      if (op.number >= kDwarfRegs || !r.known[op.number]) return std::nullopt;
      *is_value = true;
      return r.value[op.number];
    } else if (a >= DW_OP_lit0 && a <= DW_OP_lit31) push(a - DW_OP_lit0);
    else if (a == DW_OP_const1u || a == DW_OP_const2u || a == DW_OP_const4u ||
             a == DW_OP_const8u || a == DW_OP_constu || a == DW_OP_const1s ||
             a == DW_OP_const2s || a == DW_OP_const4s || a == DW_OP_const8s || a == DW_OP_consts)
      push(op.number);
    else if (a == DW_OP_stack_value) *is_value = true;
    else if (a == DW_OP_deref) {
      if (depth == 0) return std::nullopt;
      auto v = mem.read(stack[depth - 1]);
      if (!v) return std::nullopt;
      stack[depth - 1] = *v;
    } else if (a == DW_OP_plus_uconst) {
      if (depth == 0) return std::nullopt;
      stack[depth - 1] += op.number;
    } else if (depth >= 2 && (a == DW_OP_plus || a == DW_OP_minus || a == DW_OP_and ||
                              a == DW_OP_or || a == DW_OP_shl || a == DW_OP_ge ||
                              a == DW_OP_gt || a == DW_OP_lt || a == DW_OP_le ||
                              a == DW_OP_mul)) {
      const uint64_t y = stack[--depth], x = stack[depth - 1];
      uint64_t v = 0;
      switch (a) {
      case DW_OP_plus: v = x + y; break;
      case DW_OP_minus: v = x - y; break;
      case DW_OP_and: v = x & y; break;
      case DW_OP_or: v = x | y; break;
      case DW_OP_shl: v = x << (y & 63); break;
      case DW_OP_mul: v = x * y; break;
      case DW_OP_ge: v = static_cast<int64_t>(x) >= static_cast<int64_t>(y); break;
      case DW_OP_gt: v = static_cast<int64_t>(x) > static_cast<int64_t>(y); break;
      case DW_OP_lt: v = static_cast<int64_t>(x) < static_cast<int64_t>(y); break;
      default: v = static_cast<int64_t>(x) <= static_cast<int64_t>(y); break;
      }
      stack[depth - 1] = v;
    } else {
      return std::nullopt; // an operation these rules never need
    }
  }
  if (depth == 0) return std::nullopt;
  return stack[depth - 1];
}

/// One CFI step: the caller's registers, or nullopt when the rules fail.
std::optional<Regs> cfi_step(Dwarf_CFI *cfi, uint64_t vaddr, const Regs &r,
                             const StackMemory &mem) {
  if (cfi == nullptr) return std::nullopt;
  Dwarf_Frame *frame = nullptr;
  if (dwarf_cfi_addrframe(cfi, vaddr, &frame) != 0 || frame == nullptr) return std::nullopt;
  std::optional<Regs> out;
  Dwarf_Op *ops = nullptr;
  size_t nops = 0;
  bool is_value = false;
  std::optional<uint64_t> cfa;
  if (dwarf_frame_cfa(frame, &ops, &nops) == 0) cfa = evaluate(ops, nops, r, 0, mem, &is_value);
  if (cfa) {
    Regs next;
    next.value[kRsp] = *cfa;
    next.known[kRsp] = true;
    bool ok = true;
    for (int reg = 0; reg < kDwarfRegs && ok; ++reg) {
      if (reg == kRsp) continue;
      Dwarf_Op mem_ops[3];
      if (dwarf_frame_register(frame, reg, mem_ops, &ops, &nops) != 0) {
        if (reg == kRa) ok = false;
        continue;
      }
      if (nops == 0 && ops == nullptr) { // same value
        next.value[reg] = r.value[reg];
        next.known[reg] = r.known[reg];
        continue;
      }
      if (nops == 0) continue; // undefined
      auto v = evaluate(ops, nops, r, *cfa, mem, &is_value);
      if (v && !is_value) v = mem.read(*v);
      if (v) {
        next.value[reg] = *v;
        next.known[reg] = true;
      } else if (reg == kRa) {
        ok = false;
      }
    }
    if (ok) out = next;
  }
  std::free(frame);
  return out;
}

std::optional<Regs> frame_pointer_step(const Regs &r, const StackMemory &mem) {
  if (!r.known[kRbp]) return std::nullopt;
  const uint64_t fp = r.value[kRbp];
  auto saved_fp = mem.read(fp), ra = mem.read(fp + 8);
  if (!saved_fp || !ra) return std::nullopt;
  Regs next = r;
  next.value[kRbp] = *saved_fp;
  next.value[kRsp] = fp + 16;
  next.value[kRa] = *ra;
  next.known[kRa] = true;
  return next;
}

} // namespace

std::vector<uint64_t> unwind_stack(std::span<const uint64_t> regs, std::span<const uint8_t> stack,
                                   const ModuleLookup &lookup, int max_frames) {
  std::vector<uint64_t> pcs;
  if (regs.size() < 17) return pcs;
  // perf mask order -> DWARF numbering.
  static constexpr int kPerfToDwarf[17] = {0, 3, 2, 1, 4, 5, 6, 7, kRa,
                                           8, 9, 10, 11, 12, 13, 14, 15};
  Regs r;
  for (int i = 0; i < 17; ++i) {
    r.value[kPerfToDwarf[i]] = regs[static_cast<size_t>(i)];
    r.known[kPerfToDwarf[i]] = true;
  }
  const StackMemory mem(r.value[kRsp], stack);
  for (int n = 0; n < max_frames; ++n) {
    const uint64_t pc = r.value[kRa];
    if (pc == 0) break;
    pcs.push_back(pc);
    // A return address points after the call: look up the call itself.
    uint64_t vaddr = 0;
    ElfModule *m = lookup(n == 0 ? pc : pc - 1, vaddr);
    std::optional<Regs> next;
    if (m != nullptr) {
      next = cfi_step(m->eh_frame(), vaddr, r, mem);
      if (!next) next = cfi_step(m->debug_frame(), vaddr, r, mem);
    }
    if (!next) next = frame_pointer_step(r, mem);
    if (!next || !next->known[kRa]) break;
    if (next->value[kRsp] <= r.value[kRsp] && next->value[kRa] == pc) break; // no progress
    r = *next;
  }
  return pcs;
}

} // namespace prof::cpu_perf
