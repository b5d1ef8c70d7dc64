// One ELF file (or in-memory image such as the vDSO) opened once with
// libelf: its loadable segments, function symbols and call frame info.
#ifndef PROF_PLUGINS_CPU_PERF_ELF_MODULE_HPP
#define PROF_PLUGINS_CPU_PERF_ELF_MODULE_HPP

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

typedef struct Elf Elf;
typedef struct Dwarf Dwarf;
typedef struct Dwarf_CFI_s Dwarf_CFI;

namespace prof::cpu_perf {

class ElfModule {
public:
  /// nullptr when the file cannot be opened or is not ELF.
  static std::unique_ptr<ElfModule> open_file(const std::string &path);
  /// An image held in memory (copied); nullptr when it is not ELF.
  static std::unique_ptr<ElfModule> open_image(std::vector<uint8_t> image);
  ~ElfModule();
  ElfModule(const ElfModule &) = delete;
  ElfModule &operator=(const ElfModule &) = delete;

  /// The link-time address of a file offset, via the PT_LOAD segments.
  std::optional<uint64_t> vaddr_of(uint64_t file_offset) const;
  /// The (mangled) function symbol containing link-time address `vaddr`.
  const std::string *symbol_at(uint64_t vaddr) const;
  /// Call frame info: .eh_frame first, .debug_frame second (may be null).
  Dwarf_CFI *eh_frame();
  Dwarf_CFI *debug_frame();
  size_t symbol_count() const { return symbols_.size(); }

private:
  ElfModule() = default;
  bool load(Elf *elf);
  void read_symbols();

  struct Segment {
    uint64_t offset, filesz, vaddr;
  };
  struct Symbol {
    uint64_t addr, size;
    std::string name;
  };
  int fd_ = -1;
  std::vector<uint8_t> image_;
  Elf *elf_ = nullptr;
  Dwarf *dwarf_ = nullptr;
  bool dwarf_tried_ = false;
  Dwarf_CFI *eh_cfi_ = nullptr;
  bool eh_tried_ = false;
  std::vector<Segment> segments_;
  std::vector<Symbol> symbols_; // sorted by addr
};

} // namespace prof::cpu_perf

#endif
