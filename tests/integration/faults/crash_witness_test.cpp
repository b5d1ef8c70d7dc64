// An application that dies of a fault while profiled says, on its stderr,
// where it faulted and whether the code was prof's, then dies of the same
// signal with the same exit status as without prof.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kNullWrite = test_program("fault-null-write");

class CrashWitness : public ::testing::Test {
protected:
  testing::ScratchDir scratch_{"prof-crash-witness", testing::ScratchDir::Keep::on_failure};
  std::string report() const { return scratch_.file("r"); }
};

TEST_F(CrashWitness, AFaultInTheApplicationIsNamedAsItsOwn) {
  const RunResult r = run_process({kProf, "-t", "osrt", "-o", report(), kNullWrite},
                                  scratch_.path(), std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 128 + SIGSEGV) << r.describe();
  EXPECT_THAT(r.err, ContainsRegex("SIGSEGV at address 0x0 in thread [0-9]+: the fault is outside "
                                   "prof's libraries \\(in fault-null-write\\)"))
      << r.describe();
  EXPECT_THAT(r.err, ContainsRegex("#0 0x[0-9a-f]+ fault-null-write\\+0x[0-9a-f]+ "
                                   "write_through_null\\+0x0"));
  EXPECT_THAT(r.err, ContainsRegex("#1 [^\n]* main\\+"));
}

TEST_F(CrashWitness, AFaultInAPluginIsNamedAsProfs) {
  const std::string plugins = (fs::path(PROF_FAULT_PLUGIN_DIR) / "fault-in-start").string();
  const RunResult r = run_process(
      {kProf, "--plugin-path", plugins, "--plugin", "fault-in-start", "-o", report(), kNullWrite},
      scratch_.path(), std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 128 + SIGSEGV) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("the fault is in prof's plugin fault-in-start "
                               "(libprof-fault-in-start.so), not in the application"))
      << r.describe();
  EXPECT_THAT(r.err, ContainsRegex("#0 [^\n]*libprof-fault-in-start.so\\+0x[0-9a-f]+[^\n]* "
                                   "\\(prof: plugin fault-in-start\\)"));
  EXPECT_THAT(r.out, Not(HasSubstr("about to fault"))) << "it faulted before main";
}

TEST_F(CrashWitness, PROF_CRASH_WITNESS_0_SaysNothing) {
  const RunResult r = run_process(
      {"/usr/bin/env", "PROF_CRASH_WITNESS=0", kProf, "-t", "osrt", "-o", report(), kNullWrite},
      scratch_.path(), std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 128 + SIGSEGV) << r.describe();
  EXPECT_THAT(r.err, Not(HasSubstr("SIGSEGV at address"))) << r.describe();
}

} // namespace
} // namespace prof::e2e
