// prof diff end to end: gcu-steps-app captured twice, the second time with
// its kernel matmul_dtu twice as long; prof diff finds that kernel (and the
// steps it is in) slower and everything else the same, gates CI on it, and
// refuses bad input with one line and exit code 2. A PyTorch trace whose
// kernel is renamed in the second run: matched by its launching operator.
#include "tests/support/build_paths.hpp"
#include "tests/support/file_text.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using prof::testing::Json;
using prof::testing::JsonParser;
using ::testing::HasSubstr;

const std::string kStepsApp = built_program("gcu-steps-app");

class DiffE2E : public ::testing::Test {
protected:
  RunResult prof(const std::vector<std::string> &args) {
    std::vector<std::string> argv{kProf};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, dir_, std::chrono::seconds(120));
  }
  /// Captures gcu-steps-app with `app_args` as NAME.profrep.
  void capture(const std::string &name, const std::vector<std::string> &app_args) {
    std::vector<std::string> args{"--enable-activities",
                                  "*/general/operator|Api Trace/RUNTIME/gcuLaunchKernel", "-o",
                                  name, kStepsApp};
    args.insert(args.end(), app_args.begin(), app_args.end());
    const RunResult r = prof(args);
    ASSERT_EQ(r.exit_code, 0) << r.describe();
  }
  std::string path(const std::string &name) const { return (dir_ / name).string(); }

  prof::testing::ScratchDir scratch_{"prof-diff", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(DiffE2E, NamesTheSlowerKernelAndNothingElse) {
  ASSERT_NO_FATAL_FAILURE(capture("base", {}));
  ASSERT_NO_FATAL_FAILURE(capture("new", {"--slow", "matmul_dtu"}));
  // A 20% threshold: on a loaded machine the device threads wake up late.
  const RunResult r =
      prof({"diff", "--format", "json", "--threshold", "20", "base.profrep", "new.profrep"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const Json json = JsonParser::parse(r.out);
  std::set<std::string> slower, same, other;
  for (const Json &row : json["diff"]["rows"].items) {
    const std::string item = row["Kind"].text + " " + row["Name"].text;
    const std::string verdict = row["Verdict"].text;
    (verdict == "slower" ? slower : verdict == "same" ? same : other).insert(item);
    if (item == "kernel matmul_dtu") {
      EXPECT_GE(row["Change(%)"].number, 50) << r.out; // twice as long: +100%
      EXPECT_GE(row["Sure(%)"].number, 80) << r.out;
    }
  }
  // The kernel; the steps it runs in are slower too, unless the load of the
  // machine spread them so much that the change is within their noise.
  EXPECT_TRUE(slower.count("kernel matmul_dtu")) << r.out;
  slower.erase("step step");
  same.erase("step step");
  EXPECT_EQ(slower, (std::set<std::string>{"kernel matmul_dtu"})) << r.out;
  EXPECT_EQ(same, (std::set<std::string>{"kernel prepare_dtu", "kernel reduce_dtu"})) << r.out;
  EXPECT_TRUE(other.empty()) << r.out;
  EXPECT_THAT(json["diff"]["notes"].items.back().text, HasSubstr("verdict: regression: "));

  // CI: the gate fails on it and names it; a gate above the change passes.
  const RunResult gate = prof(
      {"diff", "--threshold", "20", "--fail-on-regression", "60", "base.profrep", "new.profrep"});
  EXPECT_EQ(gate.exit_code, 1) << gate.describe();
  EXPECT_THAT(gate.err, HasSubstr("prof: diff: regression of at least 60%: "));
  EXPECT_THAT(gate.err, HasSubstr("kernel matmul_dtu"));
  EXPECT_THAT(gate.out, HasSubstr("slower"));
  const RunResult pass = prof(
      {"diff", "--threshold", "20", "--fail-on-regression", "300", "base.profrep", "new.profrep"});
  EXPECT_EQ(pass.exit_code, 0) << pass.describe();

  // Folders of rank reports, one per run, and the HTML page.
  fs::create_directories(dir_ / "a");
  fs::create_directories(dir_ / "b");
  fs::copy_file(dir_ / "base.profrep", dir_ / "a" / "r0.profrep");
  fs::copy_file(dir_ / "new.profrep", dir_ / "b" / "r0.profrep");
  const RunResult html =
      prof({"diff", "--format", "html", "--threshold", "20", "-o", "d.html", "a", "b"});
  ASSERT_EQ(html.exit_code, 0) << html.describe();
  std::ifstream page(dir_ / "d.html");
  const std::string text((std::istreambuf_iterator<char>(page)), {});
  EXPECT_THAT(text, HasSubstr("<td>slower</td>"));
  EXPECT_THAT(text, HasSubstr("matmul_dtu"));
}

TEST_F(DiffE2E, MatchesAKernelRenamedUnderItsOperator) {
  std::string trace = prof::testing::file_text(PROF_KINETO_TRACE);
  const std::string old_name = "volta_sgemm_128x64_nn", new_name = "ampere_sgemm_128x64_nn";
  ASSERT_NE(trace.find(old_name), std::string::npos);
  for (size_t at = trace.find(old_name); at != std::string::npos; at = trace.find(old_name, at))
    trace.replace(at, old_name.size(), new_name);
  std::ofstream(dir_ / "renamed.json") << trace;
  ASSERT_EQ(prof({"import", "-o", "a.profrep", PROF_KINETO_TRACE}).exit_code, 0);
  ASSERT_EQ(prof({"import", "-o", "b.profrep", "renamed.json"}).exit_code, 0);
  const RunResult r = prof({"diff", "--format", "json", "a.profrep", "b.profrep"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const Json json = JsonParser::parse(r.out);
  bool found = false;
  for (const Json &row : json["diff"]["rows"].items) {
    EXPECT_EQ(row["Verdict"].text, "same") << r.out;
    if (row["Name"].text != new_name) continue;
    found = true;
    EXPECT_EQ(row["Kind"].text, "kernel");
    EXPECT_EQ(row["Note"].text, "renamed from " + old_name);
  }
  EXPECT_TRUE(found) << r.out;
}

TEST_F(DiffE2E, BadInputIsOneLineAndExitTwo) {
  ASSERT_NO_FATAL_FAILURE(capture("base", {"--steps", "2"}));
  ASSERT_NO_FATAL_FAILURE(capture("none", {"--steps", "0"})); // no kernels, no steps
  std::ofstream(dir_ / "text.profrep") << "not a report\n";
  fs::create_directories(dir_ / "empty");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"diff", "base.profrep", "missing.profrep"}, "missing.profrep"},
      {{"diff", "base.profrep", "text.profrep"}, "text.profrep"},
      {{"diff", "empty", "base.profrep"}, "empty"},
      {{"diff", "base.profrep", "none.profrep"}, "in common"},
      {{"diff", "base.profrep"}, "give two runs"},
      {{"diff", "--format", "xml", "base.profrep", "base.profrep"}, "unknown format"},
      {{"diff", "--fail-on-regression", "x", "base.profrep", "base.profrep"}, "x"},
  };
  for (const auto &[args, named] : cases) {
    const RunResult r = prof(args);
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_TRUE(r.out.empty()) << r.describe();
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.describe();
    EXPECT_THAT(r.err, HasSubstr("prof: diff: ")) << r.describe();
    EXPECT_THAT(r.err, HasSubstr(named)) << r.describe();
  }
}

} // namespace
} // namespace prof::e2e
