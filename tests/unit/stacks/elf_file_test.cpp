// ElfFile: this test's own symbol tables read back; damaged files yield
// nothing and read nothing outside them.
#include <prof/stacks/elf_file.hpp>

#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <elf.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace prof::stacks {
namespace {

[[gnu::noinline]] int static_function_of_the_test(int x) { return x * 3 + 1; }

std::string file_text(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(ElfFile, ReadsTheFunctionsOfAFullSymbolTable) {
  const auto file = ElfFile::open("/proc/self/exe");
  ASSERT_TRUE(file.has_value());
  const std::string strings = file->symbol_strings(SHT_SYMTAB, 64u << 20);
  ASSERT_FALSE(strings.empty()) << "the test is built with its symbol table";
  const std::vector<ElfFunction> functions = file->functions(SHT_SYMTAB, strings, 1u << 20);
  ASSERT_FALSE(functions.empty());
  EXPECT_TRUE(std::is_sorted(functions.begin(), functions.end(),
                             [](auto &a, auto &b) { return a.address < b.address; }));
  const auto found = std::find_if(functions.begin(), functions.end(), [](const ElfFunction &f) {
    return f.name.find("static_function_of_the_test") != std::string_view::npos;
  });
  ASSERT_NE(found, functions.end());
  EXPECT_GT(found->size, 0u);
  EXPECT_EQ(static_function_of_the_test(2), 7);
}

TEST(ElfFile, LimitsAreKept) {
  const auto file = ElfFile::open("/proc/self/exe");
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->symbol_strings(SHT_SYMTAB, 16), "") << "a table over the limit";
  const std::string strings = file->symbol_strings(SHT_SYMTAB, 64u << 20);
  EXPECT_TRUE(file->functions(SHT_SYMTAB, strings, 3).empty()) << "more functions than asked";
  // Names past the end of the strings given are left out, never read.
  EXPECT_TRUE(file->functions(SHT_SYMTAB, std::string_view(), 1u << 20).empty());
  EXPECT_FALSE(file->symbol_strings(SHT_DYNSYM, 64u << 20).empty());
}

TEST(ElfFile, DamagedFilesGiveNothing) {
  testing::ScratchDir scratch("prof-elf-file");
  const auto write = [&](const std::string &name, const std::string &text) {
    const std::string path = scratch.path() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  };
  EXPECT_FALSE(ElfFile::open("/nonexistent").has_value());
  EXPECT_FALSE(ElfFile::open(write("empty", "")).has_value());
  EXPECT_FALSE(ElfFile::open(write("text", std::string(200, 'x'))).has_value());
  const std::string self = file_text("/proc/self/exe");
  ASSERT_GT(self.size(), 4096u);
  EXPECT_FALSE(ElfFile::open(write("head", self.substr(0, 4096))).has_value())
      << "section headers past the end";
  // Section offsets and sizes pointing anywhere: every read is checked.
  std::string scrambled = self;
  const auto *header = reinterpret_cast<const Elf64_Ehdr *>(self.data());
  for (std::size_t i = 0; i < header->e_shnum; ++i) {
    auto *section =
        reinterpret_cast<Elf64_Shdr *>(scrambled.data() + header->e_shoff + i * sizeof(Elf64_Shdr));
    section->sh_offset = ~0ull - i;
    section->sh_size = (1ull << 62) + i;
    section->sh_link = static_cast<uint32_t>(i * 7919);
  }
  const auto file = ElfFile::open(write("scrambled", scrambled));
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->symbol_strings(SHT_SYMTAB, ~0ull), "");
  EXPECT_TRUE(file->functions(SHT_SYMTAB, "\0abc", 1u << 20).empty());
}

} // namespace
} // namespace prof::stacks
