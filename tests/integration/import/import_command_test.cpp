// `prof import` end to end: the prof binary on the fixtures, on a gzip
// trace, on four ranks' legacy traces (prof stats names the late rank), on
// a real legacy trace this machine's torch writes, and on cut and damaged
// traces (one line, exit 2, nothing written).
#include "tests/integration/import/import_test_support.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

namespace prof::import_test {
namespace {

namespace fs = std::filesystem;
using e2e::run_process;
using e2e::RunResult;

using e2e::kProf;
const std::string kSource = PROF_IMPORT_FIXTURES;
const std::string kKineto = kSource + "/fixtures/kineto_rank1.json";
const std::string kLegacy = kSource + "/fixtures/legacy_r0.json";

class ImportCommand : public ::testing::Test {
protected:
  std::string file(const std::string &name) const { return scratch_.file(name); }
  std::string copy(const std::string &from, const std::string &name) const {
    fs::copy_file(from, file(name));
    return file(name);
  }
  std::vector<std::string> files() const { return scratch_.file_names(); }
  testing::ScratchDir scratch_{"prof-import", testing::ScratchDir::Keep::on_failure};
};

/// CSV lines of `out` that start with `prefix`.
std::vector<std::string> lines_starting(const std::string &out, const std::string &prefix) {
  std::vector<std::string> found;
  for (const std::string &line : e2e::split_lines(out))
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  return found;
}

TEST_F(ImportCommand, KinetoTraceGoesThroughStats) {
  const std::string trace = copy(kKineto, "rank1.json");
  const RunResult imported = run_process({kProf, "import", trace});
  ASSERT_EQ(imported.exit_code, 0) << imported.describe();
  EXPECT_EQ(imported.out, "Generated: " + file("rank1.profrep") + "\n");
  EXPECT_EQ(imported.err, "");
  EXPECT_EQ(files(), (std::vector<std::string>{"rank1.json", "rank1.profrep"}));

  const RunResult stats = run_process({kProf, "stats", "--report", "torch-ops,steps,collectives",
                                       "--format", "csv", file("rank1.profrep")});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  // Operators with their self time, forward and backward apart.
  EXPECT_EQ(lines_starting(stats.out, "aten::linear,"),
            std::vector<std::string>{"aten::linear,forward,1,22000,6.11,100000,100000,100000,"
                                     "100000"})
      << stats.out;
  EXPECT_EQ(lines_starting(stats.out, "aten::mm,").size(), 1u) << stats.out;
  EXPECT_NE(lines_starting(stats.out, "aten::mm,").at(0).find(",backward,"), std::string::npos);
  // The step on this rank.
  EXPECT_EQ(lines_starting(stats.out, "3,python3 (rank 1) (4242),").size(), 1u) << stats.out;
  // Both all-reduces on the default group, 4096 bytes known for one.
  EXPECT_EQ(
      lines_starting(stats.out, "nccl:0,nccl:all_reduce,python3 (rank 1) (4242),2,4096,").size(),
      1u)
      << stats.out;
}

TEST_F(ImportCommand, GzipTraceReadsAsItsJson) {
  const std::string trace = copy(kKineto, "kineto.json");
  ASSERT_EQ(run_process({"/bin/gzip", "-k", trace}).exit_code, 0);
  const RunResult imported = run_process({kProf, "import", "-o", file("gz"), trace + ".gz"});
#ifdef PROF_HAVE_ZLIB
  ASSERT_EQ(imported.exit_code, 0) << imported.describe();
  ASSERT_EQ(run_process({kProf, "import", trace}).exit_code, 0);
  const ReadBack from_gzip = read_back(file("gz.profrep")),
                 plain = read_back(file("kineto.profrep"));
  ASSERT_EQ(from_gzip.events.size(), plain.events.size());
  for (size_t i = 0; i < plain.events.size(); ++i) {
    EXPECT_EQ(from_gzip.events[i].name, plain.events[i].name) << i;
    EXPECT_EQ(from_gzip.events[i].ts, plain.events[i].ts) << i;
    EXPECT_EQ(from_gzip.events[i].args, plain.events[i].args) << i;
  }
  // A cut gzip stream says so, and where the file ends.
  const std::string bytes = file_text(trace + ".gz");
  write_file(file("cut.json.gz"), bytes.substr(0, bytes.size() / 2));
  const RunResult cut = run_process({kProf, "import", file("cut.json.gz")});
  EXPECT_EQ(cut.exit_code, 2);
  EXPECT_EQ(cut.err, "prof: import " + file("cut.json.gz") +
                         ": expected more gzip data (the file is cut) at offset " +
                         std::to_string(bytes.size() / 2) + "\n");
  std::string damaged = bytes;
  for (size_t i = 20; i < 60 && i < damaged.size(); ++i)
    damaged[i] = static_cast<char>(~damaged[i]);
  write_file(file("damaged.json.gz"), damaged);
  const RunResult bad = run_process({kProf, "import", file("damaged.json.gz")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err.rfind("prof: import " + file("damaged.json.gz") + ": expected gzip data (", 0),
            0u)
      << bad.err;
  EXPECT_FALSE(fs::exists(file("cut.profrep")));
  EXPECT_FALSE(fs::exists(file("damaged.profrep")));
#else
  EXPECT_EQ(imported.exit_code, 2);
  EXPECT_NE(imported.err.find("built without zlib"), std::string::npos) << imported.err;
#endif
}

TEST_F(ImportCommand, CutOrDamagedTracesWriteNothing) {
  const std::string text = file_text(kKineto);
  for (const size_t cut : {size_t{1}, size_t{300}, text.size() / 3, text.size() - 10}) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    write_file(file("cut.json"), text.substr(0, cut));
    const RunResult result = run_process({kProf, "import", file("cut.json")});
    EXPECT_EQ(result.exit_code, 2) << result.describe();
    const std::string head = "prof: import " + file("cut.json") + ": expected ";
    EXPECT_EQ(result.err.rfind(head, 0), 0u) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_NE(result.err.find(" at offset "), std::string::npos) << result.err;
    EXPECT_EQ(files(), std::vector<std::string>{"cut.json"});
  }
  write_file(file("garbage.json"), "<html>not a trace</html>");
  const RunResult garbage = run_process({kProf, "import", file("garbage.json")});
  EXPECT_EQ(garbage.exit_code, 2);
  // No importer takes it: the line names them.
  EXPECT_EQ(garbage.err.rfind("prof: import " + file("garbage.json") +
                                  ": expected a trace one of the importers reads (",
                              0),
            0u)
      << garbage.err;
  EXPECT_NE(garbage.err.find("kineto"), std::string::npos) << garbage.err;
  EXPECT_NE(garbage.err.find("), found '<' at offset 0\n"), std::string::npos) << garbage.err;
  // Forced on the kineto importer, the file is refused with what it expected.
  const RunResult forced_garbage =
      run_process({kProf, "import", "--importer", "kineto", file("garbage.json")});
  EXPECT_EQ(forced_garbage.exit_code, 2);
  EXPECT_EQ(forced_garbage.err,
            "prof: import " + file("garbage.json") +
                ": expected a PyTorch trace (a JSON object with \"traceEvents\", or an array of "
                "events), found '<' at offset 0\n");
  const RunResult no_importer =
      run_process({kProf, "import", "--importer", "summary", file("garbage.json")});
  EXPECT_EQ(no_importer.exit_code, 2);
  EXPECT_EQ(
      no_importer.err.rfind("prof: import: --importer 'summary' is no importer (importers: ", 0),
      0u)
      << no_importer.err;
  // One bad trace among good ones: none is written.
  const std::string good = copy(kLegacy, "good_r0.json");
  const RunResult mixed = run_process({kProf, "import", "-o", file("out"), good, file("cut.json")});
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_TRUE(fs::is_empty(file("out")));
  const RunResult missing = run_process({kProf, "import", file("absent.json")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "prof: import " + file("absent.json") +
                             ": cannot open it: No such file or directory\n");
}

TEST_F(ImportCommand, OutputsUsageAndOverwrite) {
  const std::string trace = copy(kLegacy, "legacy_r0.json");
  const RunResult first = run_process({kProf, "import", "-o", file("one"), trace});
  ASSERT_EQ(first.exit_code, 0) << first.describe();
  EXPECT_EQ(first.out, "Generated: " + file("one.profrep") + "\n");
  EXPECT_EQ(first.err, "prof: warning: import " + trace +
                           ": the trace has no wall-clock times (PyTorch's legacy profiler): its "
                           "times count from the profiler's start; prof merge aligns such ranks "
                           "on the collective operations they share, else at their profiler "
                           "starts\n");
  // The rank from the file name.
  EXPECT_EQ(read_back(file("one.profrep")).header.rank, "0");
  const RunResult again = run_process({kProf, "import", "-o", file("one.profrep"), trace});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("--force-overwrite"), std::string::npos) << again.err;
  const RunResult forced =
      run_process({kProf, "import", "-f", "--rank", "6", "-o", file("one.profrep"), trace});
  ASSERT_EQ(forced.exit_code, 0) << forced.describe();
  const ReadBack r = read_back(file("one.profrep"));
  EXPECT_EQ(r.header.rank, "6");
  EXPECT_EQ(r.slice("aten::linear").parent, "python3 (rank 6)");

  const RunResult two_ranks = run_process({kProf, "import", "--rank", "1", trace, kKineto});
  EXPECT_EQ(two_ranks.exit_code, 2);
  EXPECT_EQ(two_ranks.err,
            "prof: import: --rank names the rank of one trace; give one TRACE with it\n");
  const RunResult nothing = run_process({kProf, "import"});
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_EQ(nothing.err, "prof: import: give the traces to import (see prof import --help)\n");
  const RunResult help = run_process({kProf, "import", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(
      help.out.rfind(
          "prof import [-o OUT] [--force-overwrite] [--rank N] [--importer NAME] TRACE...", 0),
      0u)
      << help.out;
  const RunResult top = run_process({kProf, "--help"});
  EXPECT_NE(top.out.find("\n  import "), std::string::npos);
}

/// A legacy trace of rank `rank`: 3 steps of 1 s, each with two gloo
/// all-reduces on gloo's thread at 100 and 200 ms; the `late_rank` starts
/// those of step `late_step` `late_ms` later.
std::string rank_trace(int rank, int late_rank, int late_step, int late_ms) {
  std::ostringstream out;
  out << "[";
  const auto event = [&](const std::string &name, int64_t ts, int64_t dur, int tid) {
    out << (out.tellp() > 1 ? ",\n" : "") << R"({"name": ")" << name << R"(", "ph": "X", "ts": )"
        << ts << R"(, "dur": )" << dur << R"(, "tid": )" << tid
        << R"(, "pid": "CPU functions", "args": {}})";
  };
  for (int step = 1; step <= 3; ++step) {
    const int64_t base = (step - 1) * 1'000'000 + 1'000;
    const int64_t late = rank == late_rank && step == late_step ? late_ms * 1000 : 0;
    event("ProfilerStep#" + std::to_string(step), base, 900'000, 1);
    event("aten::mm", base + 10, 100 + rank, 1);
    event("gloo:all_reduce", base + 100'000 + late, 5'000, 2);
    event("gloo:all_reduce", base + 200'000 + late, 5'000, 2);
  }
  out << "]\n";
  return out.str();
}

TEST_F(ImportCommand, FourLegacyRanksNameTheStraggler) {
  std::vector<std::string> argv = {kProf, "import", "-o", file("imported")};
  for (int rank = 0; rank < 4; ++rank) {
    const std::string trace = file("r" + std::to_string(rank) + ".json");
    write_file(trace, rank_trace(rank, 2, 2, 300));
    argv.push_back(trace);
  }
  const RunResult imported = run_process(argv);
  ASSERT_EQ(imported.exit_code, 0) << imported.describe();
  EXPECT_EQ(std::count(imported.err.begin(), imported.err.end(), '\n'), 4) << "a warning each";
  EXPECT_EQ(fs::path(file("imported")).empty(), false);
  std::set<std::string> reports;
  for (const auto &entry : fs::directory_iterator(file("imported")))
    reports.insert(entry.path().filename().string());
  EXPECT_EQ(reports,
            (std::set<std::string>{"r0.profrep", "r1.profrep", "r2.profrep", "r3.profrep"}));

  const RunResult stragglers =
      run_process({kProf, "stats", "--report", "stragglers", "--format", "csv", file("imported")});
  ASSERT_EQ(stragglers.exit_code, 0) << stragglers.describe();
  EXPECT_EQ(lines_starting(stragglers.out, "# late: "),
            (std::vector<std::string>{
                "# late: gloo:0 gloo:all_reduce #3: python3 (rank 2) last, 300.00ms after "
                "the first",
                "# late: gloo:0 gloo:all_reduce #4: python3 (rank 2) last, 300.00ms after "
                "the first"}))
      << stragglers.out;

  // Merged on their collective operations (their traces have no wall clock):
  // the ranks, started together, line up at their profiler starts.
  const RunResult merged =
      run_process({kProf, "merge", "-o", file("all.profrep"), file("imported")});
  ASSERT_EQ(merged.exit_code, 0) << merged.describe();
  const ReadBack all = read_back(file("all.profrep"));
  std::set<uint64_t> starts;
  std::set<std::string> processes;
  for (const Event *step : all.slices("ProfilerStep#1")) {
    starts.insert(step->ts);
    processes.insert(step->parent);
  }
  EXPECT_EQ(starts.size(), 1u);
  EXPECT_EQ(processes.size(), 4u);
  const RunResult steps =
      run_process({kProf, "stats", "--report", "steps", "--format", "csv", file("all.profrep")});
  ASSERT_EQ(steps.exit_code, 0) << steps.describe();
  EXPECT_EQ(lines_starting(steps.out, "2,4,").size(), 1u) << steps.out;
}

TEST_F(ImportCommand, RealLegacyTraceOfThisMachinesTorch) {
  if (run_process({"/usr/bin/python3", "-c", "import torch"}).exit_code != 0)
    GTEST_SKIP() << "/usr/bin/python3 cannot import torch (Debian's python3-torch): no legacy "
                    "trace to make";
  const RunResult made = run_process(
      {"/usr/bin/python3", kSource + "/make_legacy_trace.py", file("trace_r0.json"), file("init")},
      {}, std::chrono::seconds(180));
  ASSERT_EQ(made.exit_code, 0) << made.describe();
  const RunResult imported = run_process({kProf, "import", file("trace_r0.json")});
  ASSERT_EQ(imported.exit_code, 0) << imported.describe();
  const ReadBack r = read_back(file("trace_r0.profrep"));
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(r.header.rank, "0");
  EXPECT_EQ(r.header.plugins.at(0).options.at(0).second, "legacy");
  // Operators, each with its pass and a self time no longer than it.
  int operators = 0, backward = 0;
  for (const Event &e : r.events) {
    if (e.type != PROF_EVENT_SLICE || e.kind != PROF_CATEGORY_OPERATOR) continue;
    ++operators;
    EXPECT_EQ(e.parent, "python3 (rank 0)");
    EXPECT_LE(std::stoull(e.arg("self")), e.duration) << e.name;
    if (e.arg("pass") == "backward") ++backward;
    if (e.name == "AddmmBackward0" || e.name == "aten::mm") {
      EXPECT_EQ(e.arg("pass"), "backward") << e.name;
    }
    if (e.name == "aten::linear" || e.name == "aten::addmm") {
      EXPECT_EQ(e.arg("pass"), "forward") << e.name;
    }
  }
  EXPECT_GT(operators, 40);
  EXPECT_GT(backward, 10);
  EXPECT_EQ(r.slices("aten::linear").size(), 2u);
  // The steps the program marked, and its two all-reduces on gloo's threads.
  const auto steps = r.slices("step");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0]->arg("step"), "1");
  EXPECT_EQ(steps[1]->arg("step"), "2");
  const auto gloo = r.slices("gloo:all_reduce");
  ASSERT_EQ(gloo.size(), 2u);
  for (size_t i = 0; i < gloo.size(); ++i) {
    EXPECT_EQ(gloo[i]->kind, PROF_CATEGORY_COMMUNICATION);
    EXPECT_EQ(gloo[i]->arg("communicator"), "gloo:0");
    EXPECT_EQ(gloo[i]->arg("sequence"), std::to_string(i + 1));
    EXPECT_EQ(gloo[i]->arg("backend"), "gloo");
  }
  const auto c10d = r.slices("c10d::allreduce_");
  ASSERT_EQ(c10d.size(), 2u);
  EXPECT_EQ(c10d[1]->arg("sequence"), "2");
  EXPECT_EQ(r.of_type(PROF_EVENT_FLOW).size(), 4u);

  const RunResult stats = run_process({kProf, "stats", "--report", "torch-ops,steps,collectives",
                                       "--format", "csv", file("trace_r0.profrep")});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_EQ(lines_starting(stats.out, "aten::linear,forward,2,").size(), 1u) << stats.out;
  EXPECT_EQ(lines_starting(stats.out, "1,python3 (rank 0),").size(), 1u) << stats.out;
  EXPECT_EQ(lines_starting(stats.out, "2,python3 (rank 0),").size(), 1u) << stats.out;
  EXPECT_EQ(lines_starting(stats.out, "gloo:0,gloo:all_reduce,python3 (rank 0),2,").size(), 1u)
      << stats.out;
}

} // namespace
} // namespace prof::import_test
