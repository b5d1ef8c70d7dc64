// `prof stats` as a command, in-process: options, output files, errors with
// the texts users read, and a cut report.
#include "stats_test_report.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/json_check.hpp"

#include "core/plugin_host/console.hpp"
#include "tests/support/file_text.hpp"
#include "tests/support/process_runner.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/stats/stats_command.hpp"
#include <prof/stats/stats_reports.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace prof::stats {
namespace {

using prof::testing::JsonParser;

class StatsCommand : public ::testing::Test {
protected:
  void SetUp() override {
    report_ = dir_.file("r.profrep");
    testing::known_report().write(report_, 4);
  }
  int run(std::vector<std::string> args) {
    core::Console console;
    return tool::run_stats(args, console);
  }
  /// The UsageError's text, "" when none was thrown.
  std::string usage_error(std::vector<std::string> args) {
    try {
      run(std::move(args));
    } catch (const cli::UsageError &e) {
      return e.what();
    }
    return "";
  }

  testing::ScratchDir dir_;
  std::string report_;
};

TEST_F(StatsCommand, WritesTheDefaultReportsThatHaveData) {
  const std::string out = dir_.file("out.txt");
  ASSERT_EQ(run({report_, "-o", out}), 0);
  const std::string text = prof::testing::file_text(out);
  for (const char *title :
       {"======== GCU activities:", "======== API calls:", "======== OS runtime:",
        "======== Ranges:", "======== Counters:", "======== CPU functions (4 samples):"})
    EXPECT_NE(text.find(title), std::string::npos) << title << " in\n" << text;
  EXPECT_EQ(text.find("Device gaps"), std::string::npos);
}

TEST_F(StatsCommand, FormatsAndReportsAsAsked) {
  const std::string json = dir_.file("out.json");
  ASSERT_EQ(run({"--report", "gcu-activity, device-gaps", "--format", "json", "--gap-threshold",
                 "1000", "-o", json, report_}),
            0);
  const auto parsed = JsonParser::parse(prof::testing::file_text(json));
  ASSERT_EQ(parsed.members.size(), 2u);
  EXPECT_EQ(parsed["device-gaps"]["rows"].items.size(), 2u);

  const std::string csv = dir_.file("out.csv");
  ASSERT_EQ(
      run({"--report=device-utilization", "--interval", "2.5", "--format=csv", "-o", csv, report_}),
      0);
  const std::string text = prof::testing::file_text(csv);
  EXPECT_EQ(
      text.rfind("Device,Start(ns),End(ns),Busy(ns),Busy(%)\nGCU 0,0,2500000,2000000,80\n", 0), 0u)
      << text;
}

TEST_F(StatsCommand, RefusesToOverwriteWithoutForce) {
  const std::string out = dir_.file("out.txt");
  std::ofstream(out) << "keep";
  EXPECT_EQ(usage_error({report_, "-o", out}),
            "prof: stats: output file '" + out + "' already exists (use --force-overwrite)");
  EXPECT_EQ(prof::testing::file_text(out), "keep");
  EXPECT_EQ(run({report_, "-o", out, "-f"}), 0);
  EXPECT_NE(prof::testing::file_text(out), "keep");
}

TEST_F(StatsCommand, BadUsageIsOneLineNamingTheProblem) {
  EXPECT_EQ(usage_error({}),
            "prof: stats: give a report, several, or folders of them (see prof stats --help)");
  EXPECT_EQ(
      usage_error({report_, "--report", "gcu,api"}),
      "prof: stats: unknown report 'gcu' (reports: gcu-activity, gcu-activity-per-device, "
      "api, osrt, ranges, nvtx, python-functions, torch-ops, kernels, memcpy-time, memcpy-size, "
      "device-memory, memory, counters, device-utilization, device-gaps, cpu-functions, "
      "collectives, stragglers, outliers, overlap, idle, hang, steps, critical-path, findings)");
  EXPECT_EQ(usage_error({report_, "--report", "critical-path", "--step", "2,x"}),
            "prof: stats: --step 'x' is not a step number");
  EXPECT_EQ(usage_error({report_, "--report", "critical-path", "--step", "5"}),
            "prof: stats: --step 5: no step of that number in r.profrep");
  EXPECT_EQ(usage_error({report_, "--format", "xml"}),
            "prof: stats: unknown format 'xml' (formats: table, csv, json, html)");
  EXPECT_EQ(usage_error({report_, "--interval", "0"}),
            "prof: stats: --interval '0' is not a positive number");
  EXPECT_EQ(usage_error({report_, "--gap-threshold", "-3"}),
            "prof: stats: --gap-threshold '-3' is not a number");
  EXPECT_EQ(usage_error({report_, "--report", "torch-ops", "--group-by", "shape"}),
            "prof: stats: --group-by 'shape' is not name or shapes");
  EXPECT_EQ(usage_error({report_, "--group-by", ""}),
            "prof: stats: --group-by '' is not name or shapes");
  EXPECT_EQ(usage_error({report_, "--group-by", "Shapes"}),
            "prof: stats: --group-by 'Shapes' is not name or shapes");
  EXPECT_EQ(usage_error({report_, "--frobnicate"}).rfind("prof: stats: ", 0), 0u);
  const std::string missing = dir_.file("missing.profrep");
  EXPECT_EQ(usage_error({missing}),
            "prof: stats: cannot open report '" + missing + "': No such file or directory");
  std::ofstream(dir_.file("junk.profrep")) << "hello";
  EXPECT_NE(usage_error({dir_.file("junk.profrep")}).find("is not a prof report"),
            std::string::npos);
  const std::string empty = dir_.file("empty");
  std::filesystem::create_directory(empty);
  EXPECT_EQ(usage_error({empty}), "prof: stats: folder '" + empty + "' holds no .profrep reports");
  // Several reports are merged first: one that is no report stops it.
  EXPECT_NE(usage_error({report_, dir_.file("junk.profrep")}).find("is not a prof report"),
            std::string::npos);
}

// torch-ops and steps through the command: --group-by reaches the table,
// and the HTML page draws the steps of both ranks.
TEST_F(StatsCommand, OperatorsAndStepsAsAsked) {
  testing::TestReport two;
  for (int rank = 0; rank < 2; ++rank) {
    const uint32_t process = two.process("train [rank " + std::to_string(rank) + "]", 10 + rank);
    const uint32_t main = two.thread(process, "train", 10 + rank);
    for (uint64_t step = 1; step <= 3; ++step) {
      const uint64_t ts = testing::kOrigin + step * 1000 * testing::kUs;
      two.step(main, ts, (rank == 1 && step == 2 ? 900 : 500) * testing::kUs, step);
      two.op(main, ts, 100 * testing::kUs, "aten::mm", "forward", 100 * testing::kUs,
             step == 1 ? "[[2, 8], [8, 4]]" : "[[4, 8], [8, 4]]");
    }
  }
  two.write(report_, 4);

  const std::string csv = dir_.file("ops.csv");
  ASSERT_EQ(
      run({"--report", "torch-ops", "--group-by", "shapes", "--format", "csv", "-o", csv, report_}),
      0);
  EXPECT_EQ(
      prof::testing::file_text(csv).rfind(
          "Name,Pass,Calls,Self(ns),Self(%),Total(ns),Avg(ns),Min(ns),Max(ns),Input Shapes\n"
          "aten::mm,forward,4,400000,66.67,400000,100000,100000,100000,\"[[4, 8], [8, 4]]\"\n"
          "aten::mm,forward,2,200000,33.33,200000,100000,100000,100000,\"[[2, 8], [8, 4]]\"\n",
          0),
      0u)
      << prof::testing::file_text(csv);

  const std::string json = dir_.file("out.json");
  ASSERT_EQ(run({"--report", "steps,torch-ops", "--format", "json", "-o", json, report_}), 0);
  const auto parsed = JsonParser::parse(prof::testing::file_text(json));
  ASSERT_EQ(parsed.members.size(), 2u);
  EXPECT_EQ(parsed.members[0].first, "steps");
  EXPECT_EQ(parsed["steps"]["rows"].items.size(), 3u + 6u);
  EXPECT_EQ(parsed["steps"]["rows"].items.at(1)["Slowest"].text, "train [rank 1] (11)");
  EXPECT_EQ(parsed["steps"]["rows"].items.at(1)["Spread(ns)"].number, 400000);
  ASSERT_EQ(parsed["torch-ops"]["rows"].items.size(), 1u);
  EXPECT_EQ(parsed["torch-ops"]["rows"].items[0]["Calls"].number, 6);

  // HTML: the step chart whatever the reports asked.
  const std::string html = dir_.file("out.html");
  ASSERT_EQ(run({"--report", "torch-ops", "--format", "html", "-o", html, report_}), 0);
  const std::string page = prof::testing::file_text(html);
  EXPECT_NE(page.find("<svg id=\"step-times\""), std::string::npos);
  EXPECT_NE(page.find("<section class=\"report\" id=\"report-torch-ops\">"), std::string::npos);
  // Ranks by their rank (the full label is in the heat map's tooltips).
  EXPECT_NE(page.find("<title>rank 1, step 2: 900.00us</title>"), std::string::npos);
}

// The prof binary itself: a bad --group-by is bad usage, exit status 2,
// one line on stderr and nothing on stdout.
TEST_F(StatsCommand, BadGroupByExitsWithTwo) {
  const e2e::RunResult bad = e2e::run_process(
      {e2e::kProf, "stats", "--report", "torch-ops", "--group-by", "input", report_}, {},
      std::chrono::seconds(60));
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_EQ(bad.err, "prof: stats: --group-by 'input' is not name or shapes\n");
  EXPECT_EQ(bad.out, "");
  const e2e::RunResult good = e2e::run_process(
      {e2e::kProf, "stats", "--report", "torch-ops", "--group-by", "shapes", report_}, {},
      std::chrono::seconds(60));
  EXPECT_EQ(good.exit_code, 0) << good.describe();
  EXPECT_EQ(good.out, "======== Operators: none in this report\n");
}

// prof links no TBB (a capture's start would load it): the scan's module
// brings it in `prof stats` alone.
TEST_F(StatsCommand, OnlyItsScanLoadsTbb) {
  const e2e::RunResult version =
      e2e::run_process({"/usr/bin/env", "LD_DEBUG=libs", e2e::kProf, "--version"});
  ASSERT_EQ(version.exit_code, 0) << version.describe();
  EXPECT_EQ(version.err.find("libtbb"), std::string::npos) << version.err;
  const e2e::RunResult stats =
      e2e::run_process({"/usr/bin/env", "LD_DEBUG=libs", e2e::kProf, "stats", report_});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_NE(stats.err.find("libprof-parallel-reduce.so"), std::string::npos) << stats.err;
  EXPECT_NE(stats.err.find("libtbb"), std::string::npos) << stats.err;
}

TEST_F(StatsCommand, AMissingScanModuleIsNamed) {
  const e2e::RunResult missing =
      e2e::run_process({"/usr/bin/env", "PROF_PARALLEL_REDUCE_PATH=/no/such/module.so", e2e::kProf,
                        "stats", report_});
  EXPECT_NE(missing.exit_code, 0) << missing.describe();
  EXPECT_NE(missing.err.find("cannot load /no/such/module.so ("), std::string::npos) << missing.err;
  EXPECT_EQ(e2e::split_lines(missing.err).size(), 1u) << missing.err;
}

TEST_F(StatsCommand, HelpReportsListsEveryReportOnALine) {
  ::testing::internal::CaptureStdout();
  ASSERT_EQ(run({"--help-reports"}), 0);
  const std::string text = ::testing::internal::GetCapturedStdout();
  for (const auto &info : known_reports())
    EXPECT_NE(text.find(std::string(info.name) + " "), std::string::npos) << info.name;
  // Operators are shown by default where a report has them; steps need --report.
  EXPECT_NE(text.find("\n* torch-ops "), std::string::npos) << text;
  const size_t steps = text.find("  steps ");
  ASSERT_NE(steps, std::string::npos) << text;
  EXPECT_EQ(text[steps - 1], '\n') << "steps is not marked * in\n" << text;
  EXPECT_NE(text.find("--group-by shapes"), std::string::npos) << text;
}

TEST_F(StatsCommand, ACutReportGivesWhatIsReadableAndOneWarning) {
  // 23 events, 4 to a chunk: cut inside the last EVENTS chunk (the Memset).
  testing::TestReport known = testing::known_report();
  known.write(report_, 4, false); // no END: as a capture killed
  std::filesystem::resize_file(report_, std::filesystem::file_size(report_) - 5);
  const std::string out = dir_.file("out.csv");
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(run({report_, "--report", "memcpy-time", "--format", "csv", "-o", out}), 0);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("prof: warning: report '" + report_ + "' is cut at byte"), std::string::npos)
      << err;
  const std::string text = prof::testing::file_text(out);
  EXPECT_NE(text.find("Memcpy HtoD"), std::string::npos);
  EXPECT_EQ(text.find("Memset"), std::string::npos) << "the cut chunk held it";
}

TEST_F(StatsCommand, AMalformedEventsChunkIsLeftOutAndNamed) {
  // Three events claimed, one type byte present: the checksum holds, the
  // payload does not decode.
  testing::TestReport known = testing::known_report();
  known.raw_events_chunk({3, 1, 1});
  known.write(report_, 4);
  const std::string out = dir_.file("out.csv");
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(run({report_, "--report", "gcu-activity", "--format", "csv", "-o", out}), 0);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("is corrupted (malformed events payload); its events are left out"),
            std::string::npos)
      << err;
  EXPECT_NE(prof::testing::file_text(out).find("conv"), std::string::npos);
}

} // namespace
} // namespace prof::stats
