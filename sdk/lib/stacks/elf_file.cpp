#include <prof/stacks/elf_file.hpp>

#include <elf.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace prof::stacks {
namespace {

constexpr std::size_t kMaxSections = 1u << 16;

} // namespace

std::optional<ElfFile> ElfFile::open(const std::string &path) {
  const long fd = syscall(SYS_openat, AT_FDCWD, path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  ElfFile file(static_cast<int>(fd));
  Elf64_Ehdr header{};
  if (!file.read(&header, sizeof header, 0) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr) ||
      header.e_shnum == 0 || header.e_shnum > kMaxSections)
    return std::nullopt;
  std::vector<Elf64_Shdr> raw(header.e_shnum);
  if (!file.read(raw.data(), raw.size() * sizeof(Elf64_Shdr), header.e_shoff)) return std::nullopt;
  file.sections_.reserve(raw.size());
  for (const Elf64_Shdr &s : raw)
    file.sections_.push_back({s.sh_type, s.sh_link, s.sh_offset, s.sh_size, s.sh_entsize});
  return file;
}

ElfFile::~ElfFile() {
  if (fd_ >= 0) syscall(SYS_close, fd_);
}

ElfFile::ElfFile(ElfFile &&other) noexcept
    : fd_(std::exchange(other.fd_, -1)), sections_(std::move(other.sections_)) {}

bool ElfFile::read(void *into, std::size_t size, uint64_t offset) const {
  std::size_t done = 0;
  while (done < size) {
    const long n = syscall(SYS_pread64, fd_, static_cast<char *>(into) + done, size - done,
                           static_cast<off_t>(offset + done));
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

const ElfFile::Section *ElfFile::first_of_type(uint32_t type) const {
  for (const Section &section : sections_)
    if (section.type == type) return &section;
  return nullptr;
}

std::string ElfFile::symbol_strings(uint32_t table, uint64_t limit) const {
  const Section *symbols = first_of_type(table);
  if (symbols == nullptr || symbols->link >= sections_.size()) return "";
  const Section &strings = sections_[symbols->link];
  if (strings.type != SHT_STRTAB || strings.size > limit) return "";
  std::string text(strings.size, '\0');
  return read(text.data(), text.size(), strings.offset) ? text : "";
}

std::vector<ElfFunction> ElfFile::functions(uint32_t table, std::string_view strings,
                                            std::size_t limit) const {
  const Section *symbols = first_of_type(table);
  if (symbols == nullptr || symbols->entry_size != sizeof(Elf64_Sym)) return {};
  const uint64_t count = symbols->size / sizeof(Elf64_Sym);
  if (count > limit * 4) return {}; // most symbols are not functions; bound the read too
  std::vector<Elf64_Sym> raw(count);
  if (!read(raw.data(), raw.size() * sizeof(Elf64_Sym), symbols->offset)) return {};
  std::vector<ElfFunction> out;
  for (const Elf64_Sym &symbol : raw) {
    if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_size == 0 ||
        symbol.st_shndx == SHN_UNDEF || symbol.st_name >= strings.size())
      continue;
    const std::string_view rest = strings.substr(symbol.st_name);
    const std::string_view name = rest.substr(0, rest.find('\0'));
    if (name.empty()) continue;
    if (out.size() == limit) return {};
    out.push_back({symbol.st_value, symbol.st_size, name});
  }
  std::sort(out.begin(), out.end(),
            [](const ElfFunction &a, const ElfFunction &b) { return a.address < b.address; });
  return out;
}

} // namespace prof::stacks
