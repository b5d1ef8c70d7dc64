// The pprof exporter end to end, read by the real `go tool pprof`: a
// CPU-sampled Python program and a heap profile are captured, exported with
// `prof export --type pprof`, and pprof's -top (totals, flat and cumulative
// per function) must agree with `prof stats` of the same report.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;

/// `go` on PATH, "" when absent.
std::string find_go() {
  const char *path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((fs::path(dir) / "go").c_str(), X_OK) == 0)
      return (fs::path(dir) / "go").string();
  return "";
}

/// One row of `go tool pprof -top`, values as the digits before their unit.
struct TopRow {
  int64_t flat = 0, cum = 0;
};
struct Top {
  int64_t total = -1; ///< from "of N total"
  std::map<std::string, TopRow> rows;
};

int64_t leading_number(const std::string &text) { return std::strtoll(text.c_str(), nullptr, 10); }

Top parse_top(const std::string &out) {
  Top top;
  bool in_rows = false;
  for (const std::string &line : split_lines(out)) {
    if (const size_t of = line.find("% of "); of != std::string::npos && !in_rows)
      top.total = leading_number(line.substr(of + 5));
    if (line.find("flat  flat%") != std::string::npos) {
      in_rows = true;
      continue;
    }
    if (!in_rows) continue;
    std::istringstream fields(line);
    std::string flat, flat_pct, sum_pct, cum, cum_pct;
    fields >> flat >> flat_pct >> sum_pct >> cum >> cum_pct;
    std::string name;
    std::getline(fields, name);
    name.erase(0, name.find_first_not_of(' '));
    top.rows[name] = {leading_number(flat), leading_number(cum)};
  }
  return top;
}

/// CSV lines split into cells (quoted cells may hold commas and "").
std::vector<std::vector<std::string>> parse_csv(const std::string &text) {
  std::vector<std::vector<std::string>> rows;
  for (const std::string &line : split_lines(text)) {
    std::vector<std::string> cells{""};
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.emplace_back();
      } else {
        cells.back() += c;
      }
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

class PprofE2E : public ::testing::Test {
protected:
  void SetUp() override {
    if (go_.empty())
      GTEST_SKIP() << "no `go` on PATH: install Debian's golang-go (tools/setup does) to read "
                      "prof's pprof with go tool pprof";
  }
  /// `prof export --type pprof` of `report`, then pprof's -top of `index`.
  Top pprof_top(const fs::path &report, const std::string &index, const std::string &unit) {
    const fs::path out = dir_ / (report.stem().string() + ".pb.gz");
    const RunResult exported =
        run_process({kProf, "export", "--type", "pprof", "-f", "-o", out.string(), report});
    EXPECT_EQ(exported.exit_code, 0) << exported.describe();
    const RunResult top =
        run_process({go_, "tool", "pprof", "-top", "-nodecount=100000", "-nodefraction=0",
                     "-sample_index=" + index, "-unit=" + unit, out.string()},
                    dir_, std::chrono::seconds(120));
    EXPECT_EQ(top.exit_code, 0) << top.describe();
    return parse_top(top.out);
  }
  std::string stats(const fs::path &report, const std::string &name, const char *format) {
    const RunResult r =
        run_process({kProf, "stats", "--report", name, "--format", format, report.string()});
    EXPECT_EQ(r.exit_code, 0) << r.describe();
    return r.out;
  }

  const std::string go_ = find_go();
  testing::ScratchDir scratch_{"prof-pprof", testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(PprofE2E, CpuSamplesOfAPythonProgramAgreeWithStats) {
  const RunResult r =
      run_process({kProf, "--quiet", "-s", "process-tree", "--sampling-frequency", "1000", "-o",
                   (dir_ / "cpu").string(), PROF_SYSTEM_PYTHON3, PROF_PYTHON_WORKLOAD, "1.0"},
                  dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const fs::path report = dir_ / "cpu.profrep";

  const std::string table = stats(report, "cpu-functions", "table");
  const size_t open = table.find("CPU functions (");
  ASSERT_NE(open, std::string::npos) << table;
  const int64_t samples = leading_number(table.substr(open + 15));
  ASSERT_GT(samples, 100) << "a second at 1000 Hz: too few samples to compare";

  const Top counts = pprof_top(report, "samples", "minimum");
  EXPECT_EQ(counts.total, samples);
  const Top cpu = pprof_top(report, "cpu", "ns");
  EXPECT_EQ(cpu.total, samples * 1'000'000) << "1000 Hz: a millisecond of CPU a sample";

  const auto rows = parse_csv(stats(report, "cpu-functions", "csv"));
  ASSERT_GT(rows.size(), 10u);
  ASSERT_EQ(rows[0],
            (std::vector<std::string>{"Self(%)", "Self", "Total(%)", "Total", "Function"}));
  bool python_frame = false;
  for (size_t i = 1; i <= 10; ++i) { // prof's top ten by self samples
    const std::string &name = rows[i][4];
    python_frame |= name.find(".py:") != std::string::npos;
    ASSERT_EQ(counts.rows.count(name), 1u) << "pprof lacks " << name;
    EXPECT_EQ(counts.rows.at(name).flat, leading_number(rows[i][1])) << name;
    EXPECT_EQ(counts.rows.at(name).cum, leading_number(rows[i][3])) << name;
  }
  EXPECT_EQ(counts.rows.size(), rows.size() - 1) << "one pprof function per prof function";
  EXPECT_TRUE(python_frame || counts.rows.count("leaf_loop (" PROF_PYTHON_WORKLOAD ":18)") ||
              counts.rows.count("leaf_loop (" PROF_PYTHON_WORKLOAD ":19)"))
      << "no Python frame among the functions";
}

TEST_F(PprofE2E, HeapProfileAgreesWithStats) {
  const RunResult r =
      run_process({kProf, "--quiet", "--memory-profile", "--plugin", "memory stack-sample-bytes=1",
                   "-o", (dir_ / "heap").string(), test_program("memory-leaks")},
                  dir_, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 3) << r.describe(); // the program's own
  const fs::path report = dir_ / "heap.profrep";

  // prof's call-stack rows: bytes by part, and by leaf function.
  std::map<std::string, int64_t> total;
  std::map<std::string, std::map<std::string, int64_t>> by_leaf;
  for (const auto &row : parse_csv(stats(report, "memory", "csv"))) {
    if (row.size() < 6 || (row[1] != "leak-stack" && row[1] != "peak-stack")) continue;
    const std::string part = row[1] == "leak-stack" ? "inuse_space" : "peak_space";
    const int64_t bytes = leading_number(row[2]);
    total[part] += bytes;
    by_leaf[part][row[5].substr(0, row[5].find(" <- "))] += bytes;
  }
  ASSERT_GE(total["inuse_space"], 110100) << "the three leaks of leaks.c at least";
  for (const std::string part : {"inuse_space", "peak_space"}) {
    const Top top = pprof_top(report, part, "B");
    EXPECT_EQ(top.total, total[part]) << part;
    for (const auto &[leaf, bytes] : by_leaf[part]) {
      ASSERT_EQ(top.rows.count(leaf), 1u) << part << ": pprof lacks " << leaf;
      EXPECT_EQ(top.rows.at(leaf).flat, bytes) << part << ": " << leaf;
    }
  }
  const Top live = pprof_top(report, "inuse_space", "B");
  ASSERT_EQ(live.rows.count("leak_large"), 1u);
  EXPECT_EQ(live.rows.at("leak_large").cum, 100000);
}

#ifdef PROF_PPROF_GCU
TEST_F(PprofE2E, KernelTimeAgreesWithStatsUnderTheLaunchingCalls) {
  const RunResult r = run_process({kProf, "--quiet", "--enable-activities", "all", "-o",
                                   (dir_ / "gcu").string(), kTrain, "--steps", "4", "--quiet"},
                                  dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const fs::path report = dir_ / "gcu.profrep";
  const auto rows = parse_csv(stats(report, "kernels", "csv"));
  ASSERT_GT(rows.size(), 2u);
  ASSERT_EQ(rows[0][1], "Time(ns)");
  ASSERT_EQ(rows[0][6], "Name");
  const Top top = pprof_top(report, "kernel_time", "ns");
  int64_t total = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    const std::string &name = rows[i][6];
    total += leading_number(rows[i][1]);
    ASSERT_EQ(top.rows.count(name), 1u) << "pprof lacks kernel " << name;
    EXPECT_EQ(top.rows.at(name).flat, leading_number(rows[i][1])) << name;
  }
  EXPECT_EQ(top.total, total);
  ASSERT_EQ(top.rows.count("gcuLaunchKernel"), 1u);
  EXPECT_EQ(top.rows.at("gcuLaunchKernel").cum, total) << "every kernel under its launch";
}
#endif

// --rotate is checked before anything is read or written: exit 2, one line.
TEST(PprofExportCommand, RefusesABadRotate) {
  const RunResult word =
      run_process({kProf, "export", "--type", "pprof", "--rotate", "hourly", "r.profrep"});
  EXPECT_EQ(word.exit_code, 2);
  EXPECT_EQ(
      word.err,
      "prof: export: --rotate 'hourly': expected a number of seconds (1 or more) or 'step'\n");
  const RunResult zero =
      run_process({kProf, "export", "--type", "pprof", "--rotate", "0", "r.profrep"});
  EXPECT_EQ(zero.exit_code, 2) << zero.describe();
  const RunResult other =
      run_process({kProf, "export", "--type", "perfetto", "--rotate", "60", "r.profrep"});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_EQ(other.err, "prof: export: --rotate is for --type pprof, not 'perfetto'\n");
}

} // namespace
} // namespace prof::e2e
