// End-to-end tests of prof: each runs the real prof binary (fork/exec, no
// shell) on prof-workload, in a folder of its own, and checks what prof
// printed and what it wrote.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include "core/report/report_reader.hpp"
#include "tests/support/file_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

const fs::path kSourceDir = PROF_SOURCE_DIR;
constexpr uint64_t kMiB = 1ull << 20;

void write_text(const fs::path &path, const std::string &text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

std::vector<std::string> files_in(const fs::path &folder) {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(folder))
    names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

/// The pid in "==PID== PROF is profiling process PID, command: ...", or -1.
int profiled_pid(const std::string &out) {
  static const std::regex line(R"(^==(\d+)== PROF is profiling process (\d+), command: (.*)$)");
  for (const std::string &l : split_lines(out)) {
    std::smatch m;
    if (std::regex_match(l, m, line)) return m[1] == m[2] ? std::stoi(m[1]) : -2;
  }
  return -1;
}

/// The rows of the "======== Counters:" table (header row included), without
/// their "==PID== " prefix.
std::vector<std::string> counter_rows(const std::string &out) {
  static const std::regex prefix(R"(^==\d+== (.*)$)");
  std::vector<std::string> rows;
  bool inside = false;
  for (const std::string &l : split_lines(out)) {
    std::smatch m;
    if (!std::regex_match(l, m, prefix)) {
      if (inside) break;
      continue;
    }
    const std::string body = m[1];
    if (body == "======== Counters:") {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (body.starts_with("========") || body.starts_with("Generated:") ||
        body.starts_with("application ") || body.starts_with("Warning"))
      break;
    rows.push_back(body);
  }
  return rows;
}

/// The counter table row whose name column is `name`, or "".
std::string counter_row(const std::vector<std::string> &rows, const std::string &name) {
  for (const std::string &row : rows)
    if (row.size() >= name.size() && row.ends_with("  " + name)) return row;
  return "";
}

/// Values of every counter event on the counter track named `name`.
std::vector<double> counter_values(const report::ReportReader &reader, const std::string &name) {
  std::vector<uint32_t> ids;
  for (const auto &[id, track] : reader.tracks())
    if (track.kind == PROF_TRACK_COUNTER && track.name == name) ids.push_back(id);
  std::vector<double> values;
  for (const prof_event &e : reader.read_all_events())
    if (e.type == PROF_EVENT_COUNTER && std::find(ids.begin(), ids.end(), e.track) != ids.end())
      values.push_back(e.value);
  return values;
}

double max_of(const std::vector<double> &values) {
  return values.empty() ? -1 : *std::max_element(values.begin(), values.end());
}

const report::PluginRecord *plugin_record(const report::Header &header, const std::string &name) {
  for (const auto &p : header.plugins)
    if (p.name == name) return &p;
  return nullptr;
}

class CaptureE2E : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kProf)) << kProf;
    ASSERT_TRUE(fs::exists(kWorkload)) << kWorkload;
  }

  /// prof with `args`, run in the test's folder.
  RunResult prof(std::vector<std::string> args) {
    args.insert(args.begin(), kProf);
    return run_process(args, dir_);
  }
  fs::path path(const std::string &name) const { return dir_ / name; }

  prof::testing::ScratchDir scratch_{"prof-e2e", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

// ---------------------------------------------------------------------------
// A full capture, checked on screen and in the report.

TEST_F(CaptureE2E, CaptureWritesCountersToScreenAndReport) {
  const fs::path report_path = path("R.profrep");
  const std::vector<std::string> app = {kWorkload, "--threads",  "2", "--seconds",
                                        "0.6",     "--alloc-mb", "64"};
  std::vector<std::string> args = {"--cpu-utilization",       "--memory-utilization",
                                   "--utilization-frequency", "50",
                                   "--export-profile",        report_path.string()};
  args.insert(args.end(), app.begin(), app.end());
  const RunResult r = prof(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();

  // The screen.
  const int pid = profiled_pid(r.out);
  ASSERT_GT(pid, 0) << r.describe();
  const std::string prefix = "==" + std::to_string(pid) + "== ";
  EXPECT_THAT(r.out,
              HasSubstr(prefix + "PROF is profiling process " + std::to_string(pid) +
                        ", command: " + kWorkload + " --threads 2 --seconds 0.6 --alloc-mb 64\n"));
  EXPECT_THAT(r.out, HasSubstr("workload done: threads=2 seconds=0.6\n"));
  EXPECT_THAT(r.out, HasSubstr("process profile data ["));
  EXPECT_THAT(r.out, HasSubstr(prefix + "======== Counters:\n"));
  EXPECT_THAT(r.out, HasSubstr(prefix + "Generated: " + report_path.string() + "\n"));
  const std::vector<std::string> rows = counter_rows(r.out);
  ASSERT_GE(rows.size(), 2u) << r.describe();
  EXPECT_THAT(rows[0], AllOf(HasSubstr("Min"), HasSubstr("Avg"), HasSubstr("Max"),
                             HasSubstr("Unit"), HasSubstr("Name")));
  for (const char *name : {"Process tree RSS", "Process tree CPU usage", "CPU utilization (total)",
                           "System memory used"})
    EXPECT_NE(counter_row(rows, name), "") << name << "\n" << r.describe();
  EXPECT_THAT(counter_row(rows, "Process tree RSS"), HasSubstr("bytes"));
  EXPECT_THAT(counter_row(rows, "Process tree RSS"), HasSubstr("MiB"));
  EXPECT_THAT(r.err, Not(HasSubstr("error"))) << r.describe();

  // The report.
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report_path.string())) << ::testing::PrintToString(reader.problems());
  EXPECT_TRUE(reader.complete()) << ::testing::PrintToString(reader.problems());
  EXPECT_TRUE(reader.problems().empty()) << ::testing::PrintToString(reader.problems());
  const report::Header &header = reader.header();
  EXPECT_EQ(header.argv, app);
  EXPECT_THAT(header.pids, ElementsAre(pid));
  EXPECT_EQ(header.session_name, std::to_string(pid));
  EXPECT_EQ(header.host_name, host_name());
  EXPECT_THAT(header.command_display, HasSubstr("prof-workload --threads 2"));
  EXPECT_GT(header.clock_anchor.realtime_ns, 0u);
  EXPECT_GT(header.session_start_ns, 0u);
  const report::PluginRecord *cpu_util = plugin_record(header, "cpu-util");
  ASSERT_NE(cpu_util, nullptr);
  EXPECT_FALSE(cpu_util->version.empty());
  EXPECT_THAT(cpu_util->options, Contains(Pair("frequency", "50")));
  EXPECT_THAT(cpu_util->options, Contains(Pair("cpu", "true")));
  EXPECT_THAT(cpu_util->options, Contains(Pair("memory", "true")));
  EXPECT_NE(plugin_record(header, "summary"), nullptr) << "the default summary exporter";

  std::map<std::string, std::string> counter_units;
  for (const auto &[id, track] : reader.tracks())
    if (track.kind == PROF_TRACK_COUNTER) counter_units[track.name] = track.unit;
  EXPECT_THAT(counter_units, Contains(Pair("Process tree RSS", "bytes")));
  EXPECT_THAT(counter_units, Contains(Pair("Process tree CPU usage", "%")));
  EXPECT_THAT(counter_units, Contains(Pair("CPU utilization (total)", "%")));
  EXPECT_THAT(counter_units, Contains(Pair("System memory used", "bytes")));
  // Every counter on screen has a track in the report.
  for (size_t i = 1; i < rows.size(); ++i) {
    bool found = false;
    for (const auto &[name, unit] : counter_units)
      found = found || rows[i].ends_with("  " + name);
    EXPECT_TRUE(found) << "screen row without a report track: " << rows[i];
  }

  const std::vector<prof_event> events = reader.read_all_events();
  EXPECT_EQ(events.size(), reader.event_count());
  const size_t counters =
      static_cast<size_t>(std::count_if(events.begin(), events.end(), [](const prof_event &e) {
        return e.type == PROF_EVENT_COUNTER;
      }));
  EXPECT_GE(counters, 20u);
  // 50 Hz for 0.6 s: some 30 samples of the process tree's RSS. The capture
  // lasts longer than the workload's 0.6 s (start and exit, more on a loaded
  // machine), so the bound is the rate over the capture's own length.
  const std::vector<double> rss = counter_values(reader, "Process tree RSS");
  EXPECT_GE(rss.size(), 10u);
  ASSERT_TRUE(reader.footer().has_value());
  const double captured_s =
      static_cast<double>(reader.footer()->end_ns - header.session_start_ns) / 1e9;
  EXPECT_LE(static_cast<double>(rss.size()), 50.0 * captured_s * 1.2 + 5)
      << "50 Hz over " << captured_s << " s";
  EXPECT_GE(max_of(rss), 64.0 * kMiB);
  EXPECT_LT(max_of(rss), 512.0 * kMiB);
  EXPECT_GT(max_of(counter_values(reader, "Process tree CPU usage")), 0.0);

  ASSERT_TRUE(reader.footer().has_value());
  const report::Footer &footer = *reader.footer();
  EXPECT_EQ(footer.exit_status, 0);
  EXPECT_FALSE(footer.killed_by_signal);
  EXPECT_EQ(footer.events_written, events.size());
  EXPECT_EQ(footer.dropped, 0u);
  EXPECT_GE(footer.end_ns, header.session_start_ns + 500'000'000ull) << "the app ran 0.6 s";
  for (const prof_event &e : events) {
    ASSERT_GE(e.ts, header.session_start_ns);
    ASSERT_LE(e.ts, footer.end_ns);
  }
}

TEST_F(CaptureE2E, ImportPrintsTheSameCountersAsTheCapture) {
  const fs::path report_path = path("R.profrep");
  const RunResult live =
      prof({"--cpu-utilization", "--memory-utilization", "--utilization-frequency", "50",
            "--export-profile", report_path.string(), kWorkload, "--seconds", "0.3", "--alloc-mb",
            "16"});
  ASSERT_EQ(live.exit_code, 0) << live.describe();
  const int pid = profiled_pid(live.out);

  const RunResult imported = prof({"--import-profile", report_path.string()});
  ASSERT_EQ(imported.exit_code, 0) << imported.describe();
  EXPECT_EQ(imported.err, "");
  EXPECT_THAT(imported.out, Not(HasSubstr("PROF is profiling")));
  EXPECT_THAT(imported.out, HasSubstr("==" + std::to_string(pid) + "== ======== Counters:\n"));
  const std::vector<std::string> live_rows = counter_rows(live.out);
  ASSERT_GE(live_rows.size(), 5u) << live.describe();
  EXPECT_EQ(counter_rows(imported.out), live_rows) << live.describe() << imported.describe();

  const RunResult trace = prof({"--import-profile", report_path.string(), "--print-trace"});
  EXPECT_EQ(trace.exit_code, 0) << trace.describe();
  EXPECT_THAT(trace.out, HasSubstr("======== Profiling result"));
  EXPECT_EQ(trace.err, "");
  EXPECT_EQ(files_in(dir_), std::vector<std::string>{"R.profrep"}) << "an import writes nothing";
}

TEST_F(CaptureE2E, OutputNamesTakeMacros) {
  const RunResult live =
      prof({"--cpu-utilization", "-o", path("run-%p-%i").string(), kWorkload, "--seconds", "0.1"});
  ASSERT_EQ(live.exit_code, 0) << live.describe();
  const int pid = profiled_pid(live.out);
  EXPECT_TRUE(fs::exists(path("run-" + std::to_string(pid) + "-1.profrep"))) << live.describe();
  const RunResult bad =
      prof({"--cpu-utilization", "-o", path("run-%z").string(), kWorkload, "--print", "APP-RAN"});
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_THAT(bad.err, HasSubstr("unknown macro '%z'"));
  EXPECT_THAT(bad.out, Not(HasSubstr("APP-RAN"))) << "the application never ran";
}

TEST_F(CaptureE2E, RawDataIsTheNativeReport) {
  // topsprof's --export-rawdata / --import-rawdata: the collected data as
  // prof keeps it, the .profrep.
  const RunResult live = prof({"--cpu-utilization", "--export-rawdata",
                               path("raw.profrep").string(), kWorkload, "--seconds", "0.2"});
  ASSERT_EQ(live.exit_code, 0) << live.describe();
  prof::report::ReportReader reader;
  ASSERT_TRUE(reader.open(path("raw.profrep").string()));
  EXPECT_GT(reader.event_count(), 0u);
  const RunResult imported = prof({"--import-rawdata", path("raw.profrep").string()});
  ASSERT_EQ(imported.exit_code, 0) << imported.describe();
  EXPECT_EQ(counter_rows(imported.out), counter_rows(live.out));
}

TEST_F(CaptureE2E, ImportOfAFolderReadsItsReportsAsOne) {
  fs::create_directories(path("ranks"));
  for (const char *name : {"ranks/r0.profrep", "ranks/r1.profrep"}) {
    const RunResult live = prof({"--cpu-utilization", "--export-profile", path(name).string(),
                                 kWorkload, "--seconds", "0.1"});
    ASSERT_EQ(live.exit_code, 0) << live.describe();
  }
  const RunResult imported = prof({"--import-profile", path("ranks").string(), "--print-summary"});
  ASSERT_EQ(imported.exit_code, 0) << imported.describe();
  EXPECT_THAT(imported.out, HasSubstr("======== Counters:"));
  EXPECT_EQ(files_in(path("ranks")), (std::vector<std::string>{"r0.profrep", "r1.profrep"}))
      << "the import leaves nothing behind";
}

// ---------------------------------------------------------------------------
// The application's end.

TEST_F(CaptureE2E, ExitCodeIsPropagated) {
  const RunResult r =
      prof({"--cpu-utilization", kWorkload, "--seconds", "0.1", "--exit-code", "7"});
  EXPECT_EQ(r.exit_code, 7) << r.describe();
  const int pid = profiled_pid(r.out);
  EXPECT_THAT(r.out, HasSubstr("==" + std::to_string(pid) + "== application exited with code 7\n"))
      << r.describe();
  EXPECT_THAT(r.out, HasSubstr("workload done"));
}

TEST_F(CaptureE2E, KilledApplicationIsReportedAndItsEventsKept) {
  const fs::path report_path = path("K.profrep");
  const RunResult r = prof({"--cpu-utilization", "--export-profile", report_path.string(),
                            kWorkload, "--seconds", "0.3", "--signal", "9"});
  EXPECT_EQ(r.exit_code, 137) << r.describe();
  EXPECT_EQ(r.signal, 0) << "prof itself exits, the application was killed";
  EXPECT_THAT(r.out, HasSubstr("application was killed by signal 9")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("workload done"));
  EXPECT_THAT(r.out, HasSubstr("======== Counters:"));

  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report_path.string())) << ::testing::PrintToString(reader.problems());
  EXPECT_TRUE(reader.complete());
  EXPECT_GT(reader.event_count(), 0u);
  EXPECT_GT(counter_values(reader, "Process tree CPU usage").size(), 0u);
  ASSERT_TRUE(reader.footer().has_value());
  EXPECT_TRUE(reader.footer()->killed_by_signal);
  EXPECT_EQ(reader.footer()->signal, 9);
}

TEST_F(CaptureE2E, WaitsForOrphanedDescendants) {
  const fs::path marker = path("orphan.marker");
  const RunResult r = prof({"--cpu-utilization", kWorkload, "--seconds", "0.1", "--orphan-ms",
                            "400", "--marker", marker.string()});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  // Checked right after prof returned: the orphan has finished by then.
  EXPECT_TRUE(fs::exists(marker)) << "prof returned before the orphan ended\n" << r.describe();
  EXPECT_THAT(prof::testing::file_text(marker), HasSubstr("orphan"));
  EXPECT_GE(r.seconds, 0.45);
}

TEST_F(CaptureE2E, ChildrenAreCountedInTheProcessTree) {
  const fs::path report_path = path("C.profrep");
  const RunResult r = prof({"--cpu-utilization", "--memory-utilization", "--utilization-frequency",
                            "50", "--export-profile", report_path.string(), kWorkload, "--children",
                            "2", "--seconds", "0.6", "--alloc-mb", "32"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report_path.string()));
  const std::vector<double> cpu = counter_values(reader, "Process tree CPU usage");
  ASSERT_FALSE(cpu.empty());
  EXPECT_GT(max_of(cpu), 0.0);
  // Three processes hold 32 MiB each; the root alone holds one.
  const double root_hwm = max_of(counter_values(reader, "Process RSS high-water mark"));
  const double tree_rss = max_of(counter_values(reader, "Process tree RSS"));
  EXPECT_GE(root_hwm, 32.0 * kMiB);
  EXPECT_LT(root_hwm, 64.0 * kMiB);
  EXPECT_GE(tree_rss, 90.0 * kMiB) << "the children's memory is not counted";
}

// One prof around a launcher of any kind: torchrun's RANK, srun's
// SLURM_PROCID (here a shell starts two ranks with it), and the report's
// name asking for it: one report per rank, and the launcher's own.
TEST_F(CaptureE2E, AroundALauncherEachRankGetsItsReport) {
  for (const std::string variable : {"RANK", "SLURM_PROCID"}) {
    SCOPED_TRACE(variable);
    const std::string rank = "r" + variable + "-";
    const std::string one =
        variable + "=%d WORLD_SIZE=2 " + kWorkload + " --threads 2 --seconds 0.1 --lock-wait-ms 20";
    char script[1024];
    std::snprintf(script, sizeof script, (one + " & " + one + " & wait").c_str(), 0, 1);
    const RunResult r =
        prof({"--quiet", "-t", "osrt", "-o", path(rank + "%q{" + variable + "}").string(),
              "/bin/sh", "-c", script});
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    std::set<int> pids;
    for (int n = 0; n < 2; ++n) {
      report::ReportReader reader;
      ASSERT_TRUE(reader.open(path(rank + std::to_string(n) + ".profrep").string()));
      EXPECT_EQ(reader.header().rank, std::to_string(n));
      std::vector<std::string> processes;
      for (const auto &[id, track] : reader.tracks())
        if (track.kind == PROF_TRACK_PROCESS) {
          processes.push_back(track.name);
          pids.insert(track.pid);
        }
      ASSERT_EQ(processes.size(), 1u);
      EXPECT_THAT(processes[0], HasSubstr("prof-workload"));
      EXPECT_THAT(processes[0], EndsWith(" (rank " + std::to_string(n) + ")"));
      size_t slices = 0;
      for (const prof_event &e : reader.read_all_events())
        slices += e.type == PROF_EVENT_SLICE;
      EXPECT_GT(slices, 0u) << "the rank's lock waits";
    }
    EXPECT_EQ(pids.size(), 2u);
    report::ReportReader launcher;
    ASSERT_TRUE(launcher.open(path(rank + ".profrep").string()));
    bool shell = false;
    for (const auto &[id, track] : launcher.tracks())
      shell |= track.kind == PROF_TRACK_PROCESS && track.name.rfind("/bin/sh -c", 0) == 0;
    EXPECT_TRUE(shell) << "the launcher's own process";
  }
}

// ---------------------------------------------------------------------------
// Output files.

TEST_F(CaptureE2E, ExistingOutputNeedsForceOverwrite) {
  const fs::path report_path = path("R.profrep");
  write_text(report_path, "precious");
  const RunResult refused = prof({"--cpu-utilization", "--export-profile", report_path.string(),
                                  kWorkload, "--seconds", "0.1", "--print", "APP-RAN"});
  EXPECT_EQ(refused.exit_code, 2) << refused.describe();
  EXPECT_THAT(refused.err, AllOf(HasSubstr(report_path.string()), HasSubstr("--force-overwrite")));
  EXPECT_EQ(split_lines(refused.err).size(), 1u) << refused.describe();
  EXPECT_THAT(refused.out, Not(HasSubstr("APP-RAN"))) << "the application ran";
  EXPECT_EQ(prof::testing::file_text(report_path), "precious");

  const RunResult forced =
      prof({"--cpu-utilization", "--force-overwrite", "--export-profile", report_path.string(),
            kWorkload, "--seconds", "0.1", "--print", "APP-RAN"});
  EXPECT_EQ(forced.exit_code, 0) << forced.describe();
  EXPECT_THAT(forced.out, HasSubstr("APP-RAN\n"));
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report_path.string())) << ::testing::PrintToString(reader.problems());
  EXPECT_TRUE(reader.complete());
  EXPECT_EQ(reader.header().argv.back(), "APP-RAN");
}

// ---------------------------------------------------------------------------
// Bad input: exit 2, one line on stderr, nothing on stdout, nothing written.

struct BadInput {
  const char *name;
  std::vector<std::string> args; ///< "@W" is the workload, "@D/" the test folder
  const char *message;           ///< a part of the one line on stderr
};

void PrintTo(const BadInput &input, std::ostream *os) { *os << input.name; }

class CaptureE2EBadInput : public CaptureE2E, public ::testing::WithParamInterface<BadInput> {};

TEST_P(CaptureE2EBadInput, ExitsTwoWithOneLineAndWritesNothing) {
  const BadInput &input = GetParam();
  write_text(path("notes.txt"), "just some text, not a report\n");
  write_text(path("bad.yaml"),
             "options:\n  cpu-utilization: true\n  utilization-frequency: lots\n");
  const std::vector<std::string> before = files_in(dir_);
  std::vector<std::string> args;
  for (std::string arg : input.args) {
    if (arg == "@W") arg = kWorkload;
    if (arg.starts_with("@D/")) arg = path(arg.substr(3)).string();
    args.push_back(arg);
  }
  const RunResult r = prof(args);
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(r.out, "") << "nothing may run or print\n" << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_THAT(lines[0], ::testing::StartsWith("prof: "));
  EXPECT_THAT(lines[0], HasSubstr(input.message));
  EXPECT_EQ(files_in(dir_), before) << "nothing may be written";
}

const std::vector<std::string> kOut = {"--export-profile", "@D/out.profrep"};

std::vector<std::string> with_out(std::vector<std::string> args) {
  args.insert(args.begin(), kOut.begin(), kOut.end());
  return args;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CaptureE2EBadInput,
    ::testing::Values(
        BadInput{"UnknownOption",
                 with_out({"--cpu-utilization", "--no-such-option", "@W", "--print", "APP-RAN"}),
                 "--no-such-option"},
        BadInput{"FrequencyOutOfRange",
                 with_out({"--cpu-utilization", "--utilization-frequency", "500", "@W", "--print",
                           "APP-RAN"}),
                 "500"},
        BadInput{"MissingApplication", with_out({"--cpu-utilization", "@D/no-such-app"}),
                 "no-such-app"},
        BadInput{"ApplicationNotInPath", with_out({"--cpu-utilization", "prof-no-such-app-xyz"}),
                 "prof-no-such-app-xyz"},
        BadInput{"ConflictingOptions",
                 with_out({"--print-summary", "--print-gcu-summary", "@W", "--print", "APP-RAN"}),
                 "--print-gcu-summary"},
        BadInput{"ProfileWithError",
                 with_out({"--config", "@D/bad.yaml", "@W", "--print", "APP-RAN"}),
                 "bad.yaml:3:26:"},
        BadInput{"MissingConfig",
                 with_out({"--config", "@D/none.yaml", "@W", "--print", "APP-RAN"}), "none.yaml"},
        BadInput{"UnknownPlugin", with_out({"--plugin", "nosuch", "@W", "--print", "APP-RAN"}),
                 "nosuch"},
        BadInput{"BadPluginOption",
                 with_out({"--plugin", "cpu-util frequency=5000", "@W", "--print", "APP-RAN"}),
                 "frequency"},
        BadInput{"ImportNotAReport", {"--import-profile", "@D/notes.txt"}, "notes.txt"},
        BadInput{
            "ImportMissingFile", {"--import-profile", "@D/missing.profrep"}, "missing.profrep"},
        BadInput{"ImportFolder", {"--import-profile", "@D/"}, "folder"},
        BadInput{"NothingToDo", {"--cpu-utilization"}, "application"},
        BadInput{"DelayNotSeconds",
                 with_out({"--delay", "soon", "--cpu-utilization", "@W", "--print", "APP-RAN"}),
                 "--delay 'soon': expected seconds"},
        BadInput{"KillUnknownSignal",
                 with_out({"--duration", "1", "--kill", "sigfoo", "--cpu-utilization", "@W",
                           "--print", "APP-RAN"}),
                 "--kill 'sigfoo': expected none, a signal name"},
        BadInput{"RangeEndWithoutRange",
                 with_out({"--capture-range-end", "repeat:2", "--cpu-utilization", "@W", "--print",
                           "APP-RAN"}),
                 "--capture-range-end needs --capture-range"},
        BadInput{"RangeEndRepeatZero",
                 with_out({"-c", "profiler-api", "--capture-range-end", "repeat:0",
                           "--cpu-utilization", "@W", "--print", "APP-RAN"}),
                 "--capture-range-end 'repeat:0'"},
        BadInput{"AnnotationWithoutName",
                 with_out({"-c", "annotation", "--cpu-utilization", "@W", "--print", "APP-RAN"}),
                 "--capture-range annotation needs --annotation-capture"},
        BadInput{
            "RotationWithoutDuration",
            with_out({"--trace-rotation", "3", "--cpu-utilization", "@W", "--print", "APP-RAN"}),
            "--trace-rotation needs --duration"},
        BadInput{"EnvironmentEntryWithoutValue",
                 with_out({"-e", "A=1,JUNK", "--cpu-utilization", "@W", "--print", "APP-RAN"}),
                 "--env-var 'JUNK': expected KEY=VALUE"},
        BadInput{
            "MergeFolderWithoutReports",
            {"--visual-profiler-merge-from", "@D/", "--visual-profiler-merge-to", "@D/m.trace"},
            "holds no .profrep reports"}),
    [](const ::testing::TestParamInfo<BadInput> &info) { return std::string(info.param.name); });

TEST_F(CaptureE2E, ConflictMessageNamesBothOptions) {
  const RunResult r = prof({"--print-summary", "--print-gcu-summary", kWorkload});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("--print-summary"), HasSubstr("--print-gcu-summary")));
}

// ---------------------------------------------------------------------------
// What is printed where.

// The application writes a line to stdout and one to stderr.
const std::vector<std::string> kTalkingApp = {"/bin/sh", "-c", "echo APP-OUT; echo APP-ERR >&2"};

std::vector<std::string> with_app(std::vector<std::string> args) {
  args.insert(args.end(), kTalkingApp.begin(), kTalkingApp.end());
  return args;
}

TEST_F(CaptureE2E, ApplicationOutputIsShownByDefault) {
  const RunResult r = prof(with_app({"--cpu-utilization"}));
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(split_lines(r.out), Contains("APP-OUT"));
  EXPECT_THAT(split_lines(r.err), Contains("APP-ERR"));
  EXPECT_THAT(r.out, HasSubstr("PROF is profiling process"));
}

TEST_F(CaptureE2E, QuietHidesProfAndTheApplication) {
  const fs::path report_path = path("Q.profrep");
  const RunResult r =
      prof(with_app({"--quiet", "--cpu-utilization", "--export-profile", report_path.string()}));
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.out, "") << r.describe();
  EXPECT_EQ(r.err, "") << r.describe();
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(report_path.string())) << "--quiet still writes the report";
}

TEST_F(CaptureE2E, QuietWithPrintAppLogShowsOnlyTheApplication) {
  const fs::path report_path = path("Q.profrep");
  const RunResult r =
      prof({"--quiet", "--print-app-log", "--cpu-utilization", "--export-profile",
            report_path.string(), kWorkload, "--seconds", "0.1", "--print", "APP-LINE"});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.out, "APP-LINE\nworkload done: threads=1 seconds=0.1\n") << r.describe();
  EXPECT_EQ(r.err, "");
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(report_path.string())) << "--quiet still writes the report";
  EXPECT_GT(reader.event_count(), 0u);

  const RunResult both = prof(with_app({"--quiet", "--print-app-log", "--cpu-utilization"}));
  EXPECT_EQ(both.exit_code, 0) << both.describe();
  EXPECT_EQ(both.out, "APP-OUT\n") << both.describe();
  EXPECT_EQ(both.err, "APP-ERR\n") << both.describe();
  const RunResult shown = prof(with_app({"--quiet", "--show-output", "true", "--cpu-utilization"}));
  EXPECT_EQ(shown.out, "APP-OUT\n") << shown.describe();
}

TEST_F(CaptureE2E, ShowOutputFalseHidesTheApplication) {
  const RunResult r = prof({"--show-output", "false", "--cpu-utilization", kWorkload, "--seconds",
                            "0.1", "--print", "APP-LINE"});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  // (APP-LINE shows in the command line prof prints, but not on a line of its own.)
  EXPECT_THAT(r.out, Not(HasSubstr("\nAPP-LINE\n")));
  EXPECT_THAT(r.out, Not(::testing::StartsWith("APP-LINE\n")));
  EXPECT_THAT(r.out, Not(HasSubstr("workload done")));
  EXPECT_THAT(r.out, HasSubstr("PROF is profiling process"));
  EXPECT_THAT(r.out, HasSubstr("======== Counters:"));
}

TEST_F(CaptureE2E, LogFileTakesProfsLines) {
  const fs::path log = path("prof.log");
  const RunResult r = prof({"--log-file", log.string(), "--cpu-utilization", kWorkload, "--seconds",
                            "0.1", "--print", "APP-LINE"});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.out, "APP-LINE\nworkload done: threads=1 seconds=0.1\n") << r.describe();
  const std::string text = prof::testing::file_text(log);
  EXPECT_THAT(text, HasSubstr("PROF is profiling process"));
  EXPECT_THAT(text, HasSubstr("======== Counters:"));
  EXPECT_THAT(text, HasSubstr("CPU utilization (total)"));
  EXPECT_THAT(text, Not(HasSubstr("\nAPP-LINE\n")));
  EXPECT_THAT(text, Not(HasSubstr("workload done")));
}

// ---------------------------------------------------------------------------
// Shipped capture profiles.

TEST_F(CaptureE2E, ShippedCpuUtilizationProfile) {
  const fs::path config = kSourceDir / "configs" / "cpu-utilization.yaml";
  ASSERT_TRUE(fs::exists(config));
  const fs::path report_path = path("P.profrep");
  const RunResult r = prof({"--config", config.string(), "--export-profile", report_path.string(),
                            kWorkload, "--seconds", "0.3", "--alloc-mb", "8"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("======== Counters:"));
  const std::vector<std::string> rows = counter_rows(r.out);
  EXPECT_NE(counter_row(rows, "CPU utilization (total)"), "") << r.describe();
  EXPECT_NE(counter_row(rows, "Process tree RSS"), "") << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report_path.string()));
  const report::PluginRecord *cpu_util = plugin_record(reader.header(), "cpu-util");
  ASSERT_NE(cpu_util, nullptr);
  EXPECT_THAT(cpu_util->options, Contains(Pair("frequency", "50")));
  const report::PluginRecord *summary = plugin_record(reader.header(), "summary");
  ASSERT_NE(summary, nullptr);
  EXPECT_THAT(summary->options, Contains(Pair("mode", "summary")));
}

TEST_F(CaptureE2E, ShippedHostOverviewProfile) {
  const fs::path config = kSourceDir / "configs" / "host-overview.yaml";
  ASSERT_TRUE(fs::exists(config));
  const fs::path report_path = path("H.profrep");
  const RunResult r = prof({"--config", config.string(), "--export-profile", report_path.string(),
                            kWorkload, "--seconds", "0.3"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("======== Counters:"));        // the summary
  EXPECT_THAT(r.out, HasSubstr("======== Profiling result")); // the trace
  EXPECT_NE(counter_row(counter_rows(r.out), "System memory used"), "") << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report_path.string()));
  const report::PluginRecord *cpu_util = plugin_record(reader.header(), "cpu-util");
  ASSERT_NE(cpu_util, nullptr);
  EXPECT_THAT(cpu_util->options, Contains(Pair("frequency", "100")));
  const report::PluginRecord *trace = plugin_record(reader.header(), "trace");
  ASSERT_NE(trace, nullptr);
  EXPECT_THAT(trace->options, Contains(Pair("scope", "all")));
  EXPECT_NE(plugin_record(reader.header(), "summary"), nullptr);
}

// ---------------------------------------------------------------------------
// Plugins and subcommands.

TEST_F(CaptureE2E, PluginListShowsEveryPlugin) {
  const RunResult r = prof({"--plugin-list"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  // The table ends where the descriptions begin.
  std::vector<std::string> lines = split_lines(r.out);
  lines.erase(std::find(lines.begin(), lines.end(), "Descriptions:"), lines.end());
  ASSERT_FALSE(lines.empty());
  EXPECT_THAT(r.out, HasSubstr("\nDescriptions:\n"));
  EXPECT_THAT(r.out, AllOf(HasSubstr("NAME"), HasSubstr("KIND"), HasSubstr("SCOPE"),
                           HasSubstr("VERSION"), HasSubstr("PATH")));
  const std::map<std::string, std::string> kinds = {
      {"cpu-util", "source"}, {"summary", "exporter"}, {"trace", "exporter"}};
  for (const auto &[name, kind] : kinds) {
    bool found = false;
    for (const std::string &line : lines) {
      std::istringstream words(line);
      std::vector<std::string> w{std::istream_iterator<std::string>(words), {}};
      if (w.size() < 6 || w[0] != name) continue;
      found = true;
      EXPECT_EQ(w[1], kind) << line;
      EXPECT_EQ(w[2], "system") << line;
      EXPECT_TRUE(std::regex_match(w[3], std::regex(R"(\d+\.\d+\.\d+)"))) << line;
      EXPECT_TRUE(fs::exists(w.back())) << line;
      EXPECT_THAT(w.back(), HasSubstr("libprof-" + name + ".so")) << line;
    }
    EXPECT_TRUE(found) << name << "\n" << r.describe();
    EXPECT_TRUE(
        std::regex_search(r.out, std::regex("\n  " + name + " +[A-Z].*\\(prof project\\)\n")))
        << "description of " << name;
  }
  const RunResult sub = prof({"plugins"});
  EXPECT_EQ(sub.exit_code, 0) << sub.describe();
  EXPECT_EQ(sub.out, r.out);
}

TEST_F(CaptureE2E, PluginHelpPrintsItsOptions) {
  const RunResult r = prof({"--plugin", "cpu-util help"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("cpu-util"));
  EXPECT_THAT(r.out, AllOf(HasSubstr("OPTION"), HasSubstr("TYPE"), HasSubstr("DEFAULT"),
                           HasSubstr("HELP")));
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n\s*frequency\s+int\s+100\s+1\.\.1000\s)")))
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n\s*cpu\s+bool\s+true\s)"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n\s*memory\s+bool\s+true\s)"))) << r.out;

  const RunResult missing = prof({"--plugin", "nosuch help"});
  EXPECT_EQ(missing.exit_code, 2) << missing.describe();
  EXPECT_THAT(missing.err, AllOf(HasSubstr("nosuch"), HasSubstr("cpu-util")));
}

TEST_F(CaptureE2E, ProfileSubcommand) {
  const RunResult r = prof({"profile", "--cpu-utilization", kWorkload, "--seconds", "0.1"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_GT(profiled_pid(r.out), 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("workload done: threads=1 seconds=0.1"));
  EXPECT_NE(counter_row(counter_rows(r.out), "CPU utilization (total)"), "") << r.describe();
}

TEST_F(CaptureE2E, PluginOptionOnTheCommandLine) {
  const fs::path report_path = path("O.profrep");
  const RunResult r =
      prof({"--plugin", "cpu-util frequency=20 memory=false", "--export-profile",
            report_path.string(), kWorkload, "--seconds", "0.3", "--alloc-mb", "8"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report_path.string()));
  const report::PluginRecord *cpu_util = plugin_record(reader.header(), "cpu-util");
  ASSERT_NE(cpu_util, nullptr);
  EXPECT_THAT(cpu_util->options, Contains(Pair("frequency", "20")));
  EXPECT_THAT(cpu_util->options, Contains(Pair("memory", "false")));
  EXPECT_TRUE(counter_values(reader, "Process tree RSS").empty()) << "memory=false";
  EXPECT_FALSE(counter_values(reader, "Process tree CPU usage").empty());
  EXPECT_EQ(counter_row(counter_rows(r.out), "Process tree RSS"), "") << r.describe();
}

// ---------------------------------------------------------------------------
// The workload itself.

TEST_F(CaptureE2E, WorkloadRejectsBadArguments) {
  for (const auto &args : std::vector<std::vector<std::string>>{
           {"--threads", "x"}, {"--seconds", "-1"}, {"--frobnicate"}, {"--alloc-mb"}}) {
    std::vector<std::string> argv = {kWorkload};
    argv.insert(argv.end(), args.begin(), args.end());
    const RunResult r = run_process(argv, dir_);
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(r.out, "");
    EXPECT_THAT(r.err, AllOf(::testing::StartsWith("prof-workload: "), HasSubstr(args[0])))
        << r.describe();
  }
  const RunResult ok =
      run_process({kWorkload, "--threads", "0", "--seconds", "0", "--print", "x y"});
  EXPECT_EQ(ok.exit_code, 0) << ok.describe();
  EXPECT_EQ(ok.out, "x y\nworkload done: threads=0 seconds=0\n");
}

// ---------------------------------------------------------------------------
// A cut report.

TEST_F(CaptureE2E, TruncatedReportIsStillImported) {
  const fs::path report_path = path("R.profrep");
  const RunResult live = prof({"--cpu-utilization", "--memory-utilization", "--export-profile",
                               report_path.string(), kWorkload, "--seconds", "0.3"});
  ASSERT_EQ(live.exit_code, 0) << live.describe();
  const std::string bytes = prof::testing::file_text(report_path);
  ASSERT_GT(bytes.size(), 64u);

  // Cut in the middle, and cut just before the end (the END chunk lost).
  for (const size_t keep : {bytes.size() / 2, bytes.size() - 3}) {
    SCOPED_TRACE("kept " + std::to_string(keep) + " of " + std::to_string(bytes.size()) + " bytes");
    const fs::path cut = path("cut-" + std::to_string(keep) + ".profrep");
    write_text(cut, bytes.substr(0, keep));
    report::ReportReader reader;
    ASSERT_TRUE(reader.open(cut.string()));
    EXPECT_TRUE(reader.truncated());
    EXPECT_FALSE(reader.footer().has_value());
    EXPECT_LE(reader.last_whole_chunk_end(), keep);

    const RunResult r = prof({"--import-profile", cut.string()});
    EXPECT_EQ(r.exit_code, 0) << r.describe();
    const std::vector<std::string> lines = split_lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.describe();
    EXPECT_THAT(lines[0], AllOf(HasSubstr("warning"), HasSubstr(cut.filename().string()),
                                HasSubstr(std::to_string(keep)),
                                HasSubstr(std::to_string(reader.last_whole_chunk_end()))));
    if (reader.event_count() > 0)
      EXPECT_FALSE(counter_rows(r.out).empty()) << r.describe();
    else
      EXPECT_THAT(r.out, HasSubstr("no events were collected")) << r.describe();
    EXPECT_THAT(r.out, Not(HasSubstr("PROF is profiling")));
  }
}

} // namespace
} // namespace prof::e2e
