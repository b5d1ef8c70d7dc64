// Symbolization of real code: this test binary, libc, a stripped copy, a
// deleted file; demangling; kallsyms text; DWARF unwinding of this thread.
#include "dwarf_unwinder.hpp"
#include "elf_module.hpp"
#include "kernel_symbols.hpp"
#include "symbolizer.hpp"

#include "tests/support/build_paths.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

extern "C" __attribute__((noinline)) int cpu_perf_probe_c(int x) { return x * 3 + 1; }
namespace cpu_perf_probe {
__attribute__((noinline)) int scaled(int x, double y) { return static_cast<int>(x * y); }
} // namespace cpu_perf_probe

namespace prof::cpu_perf {
namespace {

/// Where an address of this process lies: mapped file and file offset.
struct Mapped {
  std::string path;
  uint64_t offset = 0;
};

Mapped locate_self(const void *addr) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const auto a = reinterpret_cast<uint64_t>(addr);
  while (std::getline(maps, line)) {
    unsigned long long lo, hi, off;
    int at = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx %*s %llx %*s %*s%n", &lo, &hi, &off, &at) < 3)
      continue;
    if (a < lo || a >= hi) continue;
    std::string path = line.substr(static_cast<size_t>(at));
    path.erase(0, path.find_first_not_of(' '));
    return {path, a - lo + off};
  }
  return {};
}

std::string programs() { return prof::e2e::test_program("cpu-perf"); }

/// File offset of a named function in an unstripped ELF.
uint64_t offset_of(const std::string &path, const std::string &name) {
  auto m = ElfModule::open_file(path);
  if (!m) return 0;
  for (uint64_t off = 0; off < 1u << 20; ++off) {
    const auto v = m->vaddr_of(off);
    const std::string *s = v ? m->symbol_at(*v) : nullptr;
    if (s && *s == name) return off;
  }
  return 0;
}

TEST(Symbolizer, NamesFunctionsOfThisBinary) {
  Symbolizer sym;
  const Mapped c = locate_self(reinterpret_cast<const void *>(&cpu_perf_probe_c));
  ASSERT_FALSE(c.path.empty());
  EXPECT_EQ(sym.function(c.path, c.offset), "cpu_perf_probe_c");
  const Mapped cxx = locate_self(reinterpret_cast<const void *>(&cpu_perf_probe::scaled));
  EXPECT_EQ(sym.function(cxx.path, cxx.offset + 2), "cpu_perf_probe::scaled(int, double)");
}

TEST(Symbolizer, NamesFunctionsOfLibc) {
  Symbolizer sym;
  const Mapped m = locate_self(reinterpret_cast<const void *>(&::getppid));
  ASSERT_NE(m.path.find("libc"), std::string::npos) << m.path;
  EXPECT_NE(sym.function(m.path, m.offset).find("getppid"), std::string::npos);
}

TEST(Symbolizer, Demangles) {
  EXPECT_EQ(demangle("_ZN3foo3barEv"), "foo::bar()");
  EXPECT_EQ(demangle("_ZNSt6vectorIiSaIiEE9push_backERKi"),
            "std::vector<int, std::allocator<int> >::push_back(int const&)");
  EXPECT_EQ(demangle("main"), "main");
  EXPECT_EQ(demangle("_Z_not_valid"), "_Z_not_valid");
}

TEST(Symbolizer, StrippedBinaryShowsModulePlusOffset) {
  const std::string full = programs() + "/cpu_perf_recursive";
  const std::string stripped = programs() + "/cpu_perf_recursive.stripped";
  const uint64_t off = offset_of(full, "recurse_fib");
  ASSERT_NE(off, 0u);
  Symbolizer sym;
  EXPECT_EQ(sym.function(full, off), "recurse_fib");
  char expected[96];
  std::snprintf(expected, sizeof expected, "[unknown] cpu_perf_recursive.stripped+0x%llx",
                static_cast<unsigned long long>(off));
  EXPECT_EQ(sym.function(stripped, off), expected);
}

TEST(Symbolizer, DeletedMissingAndNonElfFilesDoNotCrash) {
  const std::string dir = ::testing::TempDir();
  const std::string copy = dir + "/cpu_perf_deleted_copy";
  std::filesystem::copy_file(programs() + "/cpu_perf_recursive", copy,
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::remove(copy);
  Symbolizer sym;
  EXPECT_EQ(sym.function(copy + " (deleted)", 0x1234), "[unknown] cpu_perf_deleted_copy+0x1234");
  EXPECT_EQ(sym.function(copy, 0x10), "[unknown] cpu_perf_deleted_copy+0x10");
  const std::string junk = dir + "/cpu_perf_not_elf";
  std::ofstream(junk) << "not an ELF file at all";
  EXPECT_EQ(sym.function(junk, 0x4), "[unknown] cpu_perf_not_elf+0x4");
  EXPECT_EQ(unknown_address(0x7f0012345678), "[unknown] 0x7f0012345678");
  std::filesystem::remove(junk);
}

TEST(Symbolizer, VdsoIsReadFromMemory) {
  Symbolizer sym;
  ElfModule *vdso = sym.module("[vdso]");
  ASSERT_NE(vdso, nullptr);
  EXPECT_GT(vdso->symbol_count(), 0u);
}

TEST(KernelSymbols, ReadsKallsymsText) {
  std::istringstream text("ffffffff81000000 T _stext\n"
                          "ffffffff81000100 t do_thing\n"
                          "ffffffff81000200 D some_data\n"
                          "ffffffff81000300 T next_fn\t[mod]\n");
  KernelSymbols k;
  ASSERT_TRUE(k.load(text));
  EXPECT_EQ(*k.lookup(0xffffffff81000150), "do_thing");
  EXPECT_EQ(*k.lookup(0xffffffff81000250), "do_thing"); // data is not a function
  EXPECT_EQ(k.lookup(0xffffffff80000000), nullptr);
  std::istringstream hidden("0000000000000000 T _stext\n");
  EXPECT_FALSE(k.load(hidden));
  EXPECT_TRUE(is_kernel_address(0xffffffff81000000));
  EXPECT_FALSE(is_kernel_address(0x7fff00000000));
}

} // namespace
} // namespace prof::cpu_perf
