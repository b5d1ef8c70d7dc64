// A 64-bit ELF file's symbol and string tables, read with every offset and
// size checked against the file (a corrupt or hostile file yields nothing,
// never a read outside the buffers). Files are read through raw system calls,
// so that interposers (osrt's among them) neither see nor time the reads.
#ifndef PROF_STACKS_ELF_FILE_HPP
#define PROF_STACKS_ELF_FILE_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::stacks {

/// A function symbol: its link-time address, size and (mangled) name.
struct ElfFunction {
  uint64_t address = 0;
  uint64_t size = 0;
  std::string_view name; ///< points into the string table it was read with
};

class ElfFile {
public:
  /// nullopt when `path` cannot be read or is not a 64-bit ELF file.
  static std::optional<ElfFile> open(const std::string &path);
  ~ElfFile();
  ElfFile(ElfFile &&other) noexcept;
  ElfFile &operator=(ElfFile &&) = delete;
  ElfFile(const ElfFile &) = delete;
  ElfFile &operator=(const ElfFile &) = delete;

  /// The string table of the first section of type `table` (SHT_DYNSYM or
  /// SHT_SYMTAB); "" when there is none or it is larger than `limit` bytes.
  std::string symbol_strings(uint32_t table, uint64_t limit) const;
  /// The sized function symbols of the first section of type `table`, sorted
  /// by address, their names in `strings` (symbol_strings of the same table);
  /// none when there are more than `limit`.
  std::vector<ElfFunction> functions(uint32_t table, std::string_view strings,
                                     std::size_t limit) const;

private:
  struct Section {
    uint32_t type, link;
    uint64_t offset, size, entry_size;
  };
  explicit ElfFile(int fd) : fd_(fd) {}
  bool read(void *into, std::size_t size, uint64_t offset) const;
  const Section *first_of_type(uint32_t type) const;

  int fd_;
  std::vector<Section> sections_;
};

} // namespace prof::stacks

#endif
