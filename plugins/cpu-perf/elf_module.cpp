#include "elf_module.hpp"

#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>

namespace prof::cpu_perf {

std::unique_ptr<ElfModule> ElfModule::open_file(const std::string &path) {
  elf_version(EV_CURRENT);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  std::unique_ptr<ElfModule> m(new ElfModule);
  m->fd_ = fd;
  if (!m->load(elf_begin(fd, ELF_C_READ_MMAP, nullptr))) return nullptr;
  return m;
}

std::unique_ptr<ElfModule> ElfModule::open_image(std::vector<uint8_t> image) {
  elf_version(EV_CURRENT);
  std::unique_ptr<ElfModule> m(new ElfModule);
  m->image_ = std::move(image);
  if (m->image_.empty()) return nullptr;
  Elf *elf = elf_memory(reinterpret_cast<char *>(m->image_.data()), m->image_.size());
  if (!m->load(elf)) return nullptr;
  return m;
}

ElfModule::~ElfModule() {
  if (dwarf_ != nullptr) dwarf_end(dwarf_);
  if (eh_cfi_ != nullptr) dwarf_cfi_end(eh_cfi_);
  if (elf_ != nullptr) elf_end(elf_);
  if (fd_ >= 0) ::close(fd_);
}

bool ElfModule::load(Elf *elf) {
  elf_ = elf;
  if (elf_ == nullptr || elf_kind(elf_) != ELF_K_ELF) return false;
  size_t count = 0;
  if (elf_getphdrnum(elf_, &count) != 0) return false;
  for (size_t i = 0; i < count; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(elf_, static_cast<int>(i), &ph) != nullptr && ph.p_type == PT_LOAD)
      segments_.push_back({ph.p_offset, ph.p_filesz, ph.p_vaddr});
  }
  read_symbols();
  return true;
}

void ElfModule::read_symbols() {
  Elf_Scn *scn = nullptr;
  while ((scn = elf_nextscn(elf_, scn)) != nullptr) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) == nullptr) continue;
    if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) continue;
    Elf_Data *data = elf_getdata(scn, nullptr);
    if (data == nullptr || sh.sh_entsize == 0) continue;
    const size_t n = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < n; ++i) {
      GElf_Sym sym;
      if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) continue;
      const int type = GELF_ST_TYPE(sym.st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
          sym.st_value == 0)
        continue;
      const char *name = elf_strptr(elf_, sh.sh_link, sym.st_name);
      if (name == nullptr || *name == '\0') continue;
      symbols_.push_back({sym.st_value, sym.st_size, name});
    }
  }
  // Sized symbols first among equals, so a lookup prefers them; drop duplicates
  // that .symtab and .dynsym share.
  std::sort(symbols_.begin(), symbols_.end(), [](const Symbol &a, const Symbol &b) {
    return a.addr != b.addr ? a.addr < b.addr : a.size > b.size;
  });
  symbols_.erase(std::unique(symbols_.begin(), symbols_.end(),
                             [](const Symbol &a, const Symbol &b) { return a.addr == b.addr; }),
                 symbols_.end());
}

std::optional<uint64_t> ElfModule::vaddr_of(uint64_t file_offset) const {
  for (const auto &s : segments_)
    if (file_offset >= s.offset && file_offset < s.offset + s.filesz)
      return file_offset - s.offset + s.vaddr;
  return std::nullopt;
}

const std::string *ElfModule::symbol_at(uint64_t vaddr) const {
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), vaddr,
                             [](uint64_t a, const Symbol &s) { return a < s.addr; });
  if (it == symbols_.begin()) return nullptr;
  const Symbol &s = *std::prev(it);
  if (s.size > 0 && vaddr >= s.addr + s.size) return nullptr;
  if (s.size == 0 && vaddr - s.addr > 4096) return nullptr; // unsized: only close by
  return &s.name;
}

Dwarf_CFI *ElfModule::eh_frame() {
  if (!eh_tried_) {
    eh_tried_ = true;
    eh_cfi_ = dwarf_getcfi_elf(elf_);
  }
  return eh_cfi_;
}

Dwarf_CFI *ElfModule::debug_frame() {
  if (!dwarf_tried_) {
    dwarf_tried_ = true;
    dwarf_ = dwarf_begin_elf(elf_, DWARF_C_READ, nullptr);
  }
  return dwarf_ != nullptr ? dwarf_getcfi(dwarf_) : nullptr;
}

} // namespace prof::cpu_perf
