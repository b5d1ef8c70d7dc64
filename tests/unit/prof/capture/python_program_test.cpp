// Whether the launched program is a CPython one (python_program.hpp): real
// interpreters and scripts are, anything else, unreadable or damaged is not.
#include "tools/prof/capture/python_program.hpp"

#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace prof::tool {
namespace {

namespace fs = std::filesystem;

constexpr const char *kSystemPython = "/usr/bin/python3";

class PythonProgram : public ::testing::Test {
protected:
  void SetUp() override {
    if (!fs::exists(kSystemPython)) GTEST_SKIP() << "no " << kSystemPython;
  }
  std::string write(const std::string &name, const std::string &text) {
    const fs::path path = fs::path(scratch_.path()) / name;
    std::ofstream(path, std::ios::binary) << text;
    fs::permissions(path, fs::perms::owner_all);
    return path.string();
  }
  testing::ScratchDir scratch_{"prof-python-program"};
};

TEST_F(PythonProgram, AnInterpreterIsOne) {
  EXPECT_TRUE(elf_runs_cpython(kSystemPython));
  EXPECT_TRUE(runs_cpython(kSystemPython));
  EXPECT_TRUE(runs_cpython(fs::canonical(kSystemPython).string()));
}

TEST_F(PythonProgram, AScriptIsOneWhenItsInterpreterIs) {
  EXPECT_TRUE(runs_cpython(write("direct.py", std::string("#!") + kSystemPython + "\nprint(1)\n")));
  EXPECT_FALSE(runs_cpython(write("shell.sh", "#!/bin/sh\necho hi\n")));
  EXPECT_FALSE(runs_cpython(write("nothing.sh", "#!\n")));

  // Through env, with options and assignments before the program, found in PATH.
  const fs::path bin = fs::path(scratch_.path()) / "bin";
  fs::create_directory(bin);
  fs::create_symlink(kSystemPython, bin / "python3");
  const std::string script = write("env.py", "#!/usr/bin/env -S A=1 python3 -u\nprint(1)\n");
  const char *old_path = std::getenv("PATH");
  const std::string saved = old_path ? old_path : "";
  setenv("PATH", (bin.string() + ":/usr/bin:/bin").c_str(), 1);
  EXPECT_TRUE(runs_cpython(script));
  EXPECT_TRUE(runs_cpython("python3")) << "a name found in PATH";
  setenv("PATH", "/nonexistent", 1);
  EXPECT_FALSE(runs_cpython(script)) << "env finds no python3";
  setenv("PATH", saved.c_str(), 1);
}

TEST_F(PythonProgram, OtherProgramsAndDamagedFilesAreNot) {
  EXPECT_FALSE(runs_cpython("/bin/sh"));
  EXPECT_FALSE(runs_cpython("no-such-program-xyz"));
  EXPECT_FALSE(elf_runs_cpython("/nonexistent"));
  EXPECT_FALSE(runs_cpython(write("empty", "")));
  EXPECT_FALSE(runs_cpython(write("text", "not a program at all")));
  // The interpreter's first 4 KiB: a valid header whose sections lie past the end.
  std::ifstream in(kSystemPython, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  EXPECT_FALSE(runs_cpython(write("truncated", head)));
  // The same header claiming 65,535 sections of a wrong size.
  std::string bad = head;
  bad[58] = 1; // e_shentsize
  bad[60] = static_cast<char>(0xff);
  bad[61] = static_cast<char>(0xff);
  EXPECT_FALSE(runs_cpython(write("bad-sections", bad)));
}

} // namespace
} // namespace prof::tool
