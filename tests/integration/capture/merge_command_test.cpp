// `prof merge` and topsprof's --visual-profiler-merge-from/-to on reports of
// two real captures: one report with both processes on one timeline, one
// Perfetto trace; bad input refused with exit 2 and nothing written.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"

#include "core/report/report_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <unistd.h>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::vector<std::string> files_in(const fs::path &folder) {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(folder))
    names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

class MergeCommand : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("prof-merge-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "reports");
    // Two captures, one after the other: b's events all come after a's.
    for (const char *name : {"a", "b"}) {
      const RunResult r =
          run_process({kProf, "--cpu-utilization", "-o", (dir_ / "reports" / name).string(),
                       kWorkload, "--seconds", "0.2"});
      ASSERT_EQ(r.exit_code, 0) << r.describe();
      report::ReportReader reader;
      ASSERT_TRUE(reader.open((dir_ / "reports" / (std::string(name) + ".profrep")).string()));
      ASSERT_EQ(reader.header().pids.size(), 1u);
      pids_.push_back(reader.header().pids.front());
    }
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static std::string report(const char *name) {
    return (dir_ / "reports" / (std::string(name) + ".profrep")).string();
  }

  static fs::path dir_;
  static std::vector<int32_t> pids_;
};

fs::path MergeCommand::dir_;
std::vector<int32_t> MergeCommand::pids_;

TEST_F(MergeCommand, MergesTwoCapturesIntoOneReport) {
  const fs::path out = dir_ / "m.profrep";
  const RunResult r = run_process({kProf, "merge", "-o", out.string(), report("a"), report("b")});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("Generated: " + out.string() + "\n"));
  EXPECT_EQ(r.err, "");

  report::ReportReader merged;
  ASSERT_TRUE(merged.open(out.string())) << merged.problems().back();
  EXPECT_EQ(merged.status(), report::ReportStatus::complete);
  EXPECT_EQ(merged.header().session_name, "merged");
  EXPECT_EQ(merged.header().pids, pids_);

  // Each capture's process is its own track, labelled with its rank.
  std::map<int32_t, std::string> process_names;
  for (const auto &[id, track] : merged.tracks())
    if (track.kind == PROF_TRACK_PROCESS) process_names[track.pid] = track.name;
  ASSERT_EQ(process_names.size(), 2u);
  EXPECT_THAT(process_names[pids_[0]], HasSubstr(" rank 0]"));
  EXPECT_THAT(process_names[pids_[1]], HasSubstr(" rank 1]"));

  // Both processes' events, on one timeline: all of a's before b's.
  std::map<int32_t, uint64_t> first_ts, last_ts, count;
  const auto pid_of = [&](uint32_t track) {
    for (const report::TrackRecord *t = merged.track(track); t; t = merged.track(t->parent))
      if (t->pid != 0) return t->pid;
    return 0;
  };
  merged.for_each_event_batch([&](const prof_event *events, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const int32_t pid = pid_of(events[i].track);
      if (!count[pid]++) first_ts[pid] = std::numeric_limits<uint64_t>::max();
      first_ts[pid] = std::min(first_ts[pid], events[i].ts);
      last_ts[pid] = std::max(last_ts[pid], events[i].ts);
    }
  });
  ASSERT_GT(count[pids_[0]], 0u);
  ASSERT_GT(count[pids_[1]], 0u);
  EXPECT_LT(last_ts[pids_[0]], first_ts[pids_[1]]);
  EXPECT_LE(merged.header().session_start_ns, first_ts[pids_[0]]);

  // An existing output is refused without -f and replaced with it.
  const RunResult again = run_process({kProf, "merge", "-o", out.string(), report("a")});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_EQ(again.err, "prof: merge: output file '" + out.string() +
                           "' already exists (use --force-overwrite)\n");
  const RunResult forced = run_process({kProf, "merge", "-f", "-o", out.string(), report("a")});
  EXPECT_EQ(forced.exit_code, 0) << forced.describe();
  report::ReportReader one;
  ASSERT_TRUE(one.open(out.string()));
  EXPECT_EQ(one.header().pids, std::vector<int32_t>{pids_[0]});
}

TEST_F(MergeCommand, VisualProfilerMergeWritesAPerfettoTrace) {
  const fs::path out = dir_ / "m.pftrace";
  const RunResult r =
      run_process({kProf, "--visual-profiler-merge-from", (dir_ / "reports").string(),
                   "--visual-profiler-merge-to", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("Generated: " + out.string() + "\n"));
  ASSERT_TRUE(fs::is_regular_file(out));
  EXPECT_GT(fs::file_size(out), 0u);
  // Nothing but the trace is left behind.
  EXPECT_THAT(files_in(dir_ / "reports"), ElementsAre("a.profrep", "b.profrep"));
  for (const auto &name : files_in(dir_))
    EXPECT_THAT(name, Not(HasSubstr(".merge-")));

  // To a .profrep, the same options write a report.
  const fs::path report_out = dir_ / "vp.profrep";
  const RunResult as_report =
      run_process({kProf, "--visual-profiler-merge-from", (dir_ / "reports").string(),
                   "--visual-profiler-merge-to", report_out.string()});
  ASSERT_EQ(as_report.exit_code, 0) << as_report.describe();
  report::ReportReader merged;
  ASSERT_TRUE(merged.open(report_out.string()));
  EXPECT_EQ(merged.header().pids, pids_);
}

TEST_F(MergeCommand, RefusesBadInputWithExit2AndWritesNothing) {
  const fs::path bad = dir_ / "bad";
  fs::create_directories(bad / "empty");
  std::ofstream(bad / "notes.profrep") << "hello";
  const std::string out = (bad / "out.profrep").string();
  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  const Case cases[] = {
      {{"merge", "-o", out},
       "prof: merge: give the reports to merge: .profrep files or folders "
       "of them (see prof merge --help)\n"},
      {{"merge", report("a")},
       "prof: merge: give the output with -o FILE (see prof merge --help)\n"},
      {{"merge", "-o", out, (bad / "empty").string()},
       "prof: merge: folder '" + (bad / "empty").string() + "' holds no .profrep reports\n"},
      {{"merge", "-o", out, report("a"), (bad / "notes.profrep").string()},
       "prof: merge: '" + (bad / "notes.profrep").string() +
           "' is not a prof report (bad magic)\n"},
      {{"merge", "-o", out, report("a"), (bad / "missing.profrep").string()},
       "prof: merge: cannot open report '" + (bad / "missing.profrep").string() +
           "': No such file or directory\n"},
      {{"--visual-profiler-merge-to", out},
       "prof: --visual-profiler-merge-to needs --visual-profiler-merge-from\n"},
      {{"--visual-profiler-merge-from", (dir_ / "reports").string()},
       "prof: --visual-profiler-merge-from needs --visual-profiler-merge-to\n"},
      {{"--visual-profiler-merge-from", (bad / "empty").string(), "--visual-profiler-merge-to",
        out},
       "prof: merge: folder '" + (bad / "empty").string() + "' holds no .profrep reports\n"},
  };
  for (const Case &c : cases) {
    std::vector<std::string> argv{kProf};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    const RunResult r = run_process(argv);
    SCOPED_TRACE(r.describe());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, c.error);
    EXPECT_THAT(files_in(bad), ElementsAre("empty", "notes.profrep"));
  }
}

TEST_F(MergeCommand, CutInputIsMergedWithAWarning) {
  const fs::path cut = dir_ / "cut";
  fs::create_directories(cut);
  fs::copy_file(report("b"), cut / "b.profrep");
  fs::resize_file(cut / "b.profrep", fs::file_size(cut / "b.profrep") - 10);
  const std::string out = (cut / "m.profrep").string();
  const RunResult r =
      run_process({kProf, "merge", "-o", out, report("a"), (cut / "b.profrep").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.err, StartsWith("prof: warning: merge: '" + (cut / "b.profrep").string() +
                                "' is cut at byte "));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  report::ReportReader merged;
  ASSERT_TRUE(merged.open(out));
  EXPECT_EQ(merged.header().pids, pids_);
}

} // namespace
} // namespace prof::e2e
