// The function trace end to end: `prof --python-functions-trace LIST
// python3 PROGRAM` and the report's annotation ranges read back. Each call
// of a listed function is one range on its thread, nested as the calls
// were, closed by an exception too; unlisted functions make none; the
// program's own sitecustomize still runs; the pytorch set names a module's
// calls by its class; and a range opens a capture range.
#include "core/report/report_reader.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
const fs::path kPrograms = PROF_PYTHON_FUNCTIONS_PROGRAMS;

struct Range {
  std::string name, category;
  int thread = 0;
  uint64_t begin = 0, end = 0;
};

/// The python source's annotation ranges (category "python" or "python/D").
std::vector<Range> read_ranges(const fs::path &path) {
  std::vector<Range> out;
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(path.string())) << path;
  for (const prof_event &e : reader.read_all_events()) {
    if (e.type != PROF_EVENT_SLICE || e.kind != PROF_CATEGORY_ANNOTATION) continue;
    const std::string category(e.category ? reader.string(e.category) : "");
    if (category.rfind("python", 0) != 0) continue;
    const report::TrackRecord *track = reader.track(e.track);
    out.push_back({std::string(reader.string(e.name)), category, track ? track->tid : 0, e.ts,
                   e.ts + e.duration});
  }
  return out;
}

std::map<std::string, int> calls_by_name(const std::vector<Range> &ranges) {
  std::map<std::string, int> calls;
  for (const Range &r : ranges)
    ++calls[r.name];
  return calls;
}

class PythonFunctionsE2E : public ::testing::Test {
protected:
  RunResult profile(const std::vector<std::string> &options, const std::string &program,
                    const std::string &python_path = "") {
    std::vector<std::string> argv{
        "/usr/bin/env", "PYTHONPATH=" + python_path, kProf, "--quiet", "--print-app-log",
        "-o",           (dir_ / "r").string()};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), {PROF_SYSTEM_PYTHON3, (kPrograms / program).string()});
    return run_process(argv, kPrograms, std::chrono::seconds(120));
  }

  testing::ScratchDir scratch_{"prof-python-functions", testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(PythonFunctionsE2E, EachCallOfAListedFunctionIsOneRangeOnItsThread) {
  const RunResult r = profile({"--python-functions-trace", (kPrograms / "functions.json").string()},
                              "traced_calls.py", (kPrograms / "user_site").string());
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("done 6"), std::string::npos) << r.describe();
  // The program's own sitecustomize, which prof's hides, ran too.
  EXPECT_NE(r.err.find("user sitecustomize ran"), std::string::npos) << r.describe();
  EXPECT_EQ(r.err.find("not traced"), std::string::npos) << r.describe();

  const std::vector<Range> ranges = read_ranges(dir_ / "r.profrep");
  const std::map<std::string, int> calls = calls_by_name(ranges);
  EXPECT_EQ(calls.at("outer"), 2);
  EXPECT_EQ(calls.at("inner"), 3 + 4 + 1); // and one under fails()
  EXPECT_EQ(calls.at("fails"), 1);         // closed by its exception
  EXPECT_EQ(calls.at("recurse"), 64);      // the deepest calls past 64 open ranges are left out
  EXPECT_EQ(calls.at("Shapes.area"), 2);   // once through Shapes.unit
  EXPECT_EQ(calls.at("Shapes.unit"), 1);
  EXPECT_EQ(calls.count("untraced"), 0u);

  std::set<int> outer_threads;
  for (const Range &r : ranges) {
    if (r.name == "outer") outer_threads.insert(r.thread);
    if (r.name == "fails") {
      EXPECT_EQ(r.category, "python/errors");
    }
    if (r.name == "inner") {
      EXPECT_EQ(r.category, "python");
      EXPECT_GE(r.end - r.begin, 2'000'000u); // it spins 2 ms
      // Inside the outer() or fails() call of its thread.
      const bool nested = std::any_of(ranges.begin(), ranges.end(), [&](const Range &o) {
        return (o.name == "outer" || o.name == "fails") && o.thread == r.thread &&
               o.begin <= r.begin && r.end <= o.end;
      });
      EXPECT_TRUE(nested) << "inner at " << r.begin << " on " << r.thread;
    }
  }
  EXPECT_EQ(outer_threads.size(), 2u); // the main thread's and the worker's

  // prof stats sums them by name.
  const RunResult stats = run_process({kProf, "stats", "--report", "python-functions", "--format",
                                       "csv", (dir_ / "r.profrep").string()});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_NE(stats.out.find(",8,"), std::string::npos) << stats.out; // inner's 8 calls
  EXPECT_NE(stats.out.find(",errors,fails"), std::string::npos) << stats.out;
}

TEST_F(PythonFunctionsE2E, ARangeOpensACaptureRange) {
  const RunResult r =
      profile({"--python-functions-trace", (kPrograms / "functions.json").string(), "-c",
               "annotation", "-p", "fails@errors", "--capture-range-end", "stop"},
              "traced_calls.py");
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::map<std::string, int> calls = calls_by_name(read_ranges(dir_ / "r.profrep"));
  // Collection ran while fails() (in domain "errors") did: its range and the
  // inner() call in it.
  EXPECT_EQ(calls.at("fails"), 1);
  EXPECT_EQ(calls.at("inner"), 1);
  EXPECT_EQ(calls.count("outer"), 0u);
  EXPECT_EQ(calls.count("recurse"), 0u);
}

TEST_F(PythonFunctionsE2E, AThresholdLeavesOutShortCalls) {
  const uint64_t threshold = 1'500'000;
  const RunResult r = profile({"--python-functions-trace", (kPrograms / "functions.json").string(),
                               "--python-functions-threshold", std::to_string(threshold)},
                              "traced_calls.py");
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::vector<Range> ranges = read_ranges(dir_ / "r.profrep");
  for (const Range &range : ranges)
    EXPECT_GE(range.end - range.begin, threshold) << range.name;
  // inner() spins 2 ms, and outer() calls it; the shapes' methods take
  // microseconds, unless the machine stalls them.
  const std::map<std::string, int> calls = calls_by_name(ranges);
  EXPECT_EQ(calls.at("inner"), 8);
  EXPECT_EQ(calls.at("outer"), 2);
  EXPECT_LT(calls.count("Shapes.area") ? calls.at("Shapes.area") : 0, 2);
}

TEST_F(PythonFunctionsE2E, ThePytorchSetNamesModuleCallsByTheirClass) {
  // PyTorch's layout in a stand-in (fake_torch/), so the set is checked
  // where python3-torch is not installed.
  const RunResult r = profile({"--python-functions-trace", "pytorch"}, "torch_steps.py",
                              (kPrograms / "fake_torch").string());
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("not traced"), std::string::npos) << r.describe();
  const std::map<std::string, int> calls = calls_by_name(read_ranges(dir_ / "r.profrep"));
  const std::map<std::string, int> expected{
      {"Net.forward", 4},
      {"Sequential.forward", 4},
      {"Linear.forward", 4},
      {"ReLU.forward", 4},
      {"SGD.step", 4},
      {"Custom.step", 4},
      {"DataLoader.__next__", 5}, // the fifth ends the loop
      {"all_reduce", 2},          // once through barrier(), which calls the c10d module's own
      {"barrier", 1}};
  EXPECT_EQ(calls, expected);
}

TEST_F(PythonFunctionsE2E, ThePytorchSetOnPyTorchItself) {
  if (run_process({PROF_SYSTEM_PYTHON3, "-c", "import torch"}).exit_code != 0)
    GTEST_SKIP() << "PyTorch is not installed (Debian: python3-torch)";
  const RunResult r = profile({"--python-functions-trace", "pytorch"}, "torch_steps.py");
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::map<std::string, int> calls = calls_by_name(read_ranges(dir_ / "r.profrep"));
  for (const char *name : {"Net.forward", "Sequential.forward", "Linear.forward", "ReLU.forward",
                           "SGD.step", "Custom.step"})
    EXPECT_EQ(calls.count(name) ? calls.at(name) : 0, 4) << name;
  EXPECT_EQ(calls.count("DataLoader.__next__") ? calls.at("DataLoader.__next__") : 0, 5);
}

TEST_F(PythonFunctionsE2E, ABadListIsRefusedBeforeTheProgramRuns) {
  const fs::path list = dir_ / "bad.json";
  std::ofstream(list) << "[{\"module\": \"calls_module\", \"functions\": [\"inner\", 7]}]";
  const RunResult r = profile({"--python-functions-trace", list.string()}, "traced_calls.py");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "prof: --python-functions-trace " + list.string() +
                       ":1:52: expected a function name or an object with \"function\"\n");
  EXPECT_EQ(r.out.find("done"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "r.profrep"));
}

// prof's sitecustomize (first on PYTHONPATH in every Python program prof
// starts) imports nothing the program would not have, and comes compiled:
// the program's heap and start are its own.
TEST_F(PythonFunctionsE2E, ProfsSitecustomizeImportsNothingAndComesCompiled) {
  const RunResult bare = run_process({"/usr/bin/env", "PYTHONPATH=", PROF_SYSTEM_PYTHON3,
                                      (kPrograms / "site_modules.py").string()},
                                     kPrograms);
  ASSERT_EQ(bare.exit_code, 0) << bare.describe();
  const RunResult under_prof = profile({"--memory-profile"}, "site_modules.py");
  ASSERT_EQ(under_prof.exit_code, 0) << under_prof.describe();
  EXPECT_NE(under_prof.out.find("sitecustomize compiled: True"), std::string::npos)
      << under_prof.out;
  const auto modules = [](const std::string &out) {
    std::set<std::string> names;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
      if (!line.starts_with("sitecustomize compiled")) names.insert(line);
    return names;
  };
  EXPECT_EQ(modules(under_prof.out), modules(bare.out));
}

} // namespace
} // namespace prof::e2e
