// `prof stats` on a real capture: its GCU activity table has the rows the
// capture's own summary printed, and its JSON parses.
#include "tests/support/build_paths.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;
using prof::e2e::run_process;
using prof::e2e::RunResult;
using prof::e2e::split_lines;

namespace {

using prof::e2e::kProf;
using prof::e2e::kTrain;

/// The rows of the "GCU activites:" group in a console activity table, each
/// as its cells from Time(%) on; "==PID== " prefixes are dropped.
std::vector<std::vector<std::string>> gcu_rows(const std::string &out) {
  static const std::regex prefix(R"(^==\d+== )");
  const std::string title = "GCU activites:";
  std::vector<std::vector<std::string>> rows;
  bool inside = false;
  for (std::string line : split_lines(out)) {
    line = std::regex_replace(line, prefix, "");
    const size_t text = line.find_first_not_of(' ');
    const bool first = text != std::string::npos && line.compare(text, title.size(), title) == 0;
    // Later rows of the group leave the Type column (as wide as the title) blank.
    const bool more = inside && text != std::string::npos && text > title.size();
    inside = first || more;
    if (!inside) continue;
    std::istringstream words(first ? line.substr(text + title.size()) : line);
    std::vector<std::string> cells;
    for (std::string word; words >> word;)
      cells.push_back(word);
    rows.push_back(cells);
  }
  return rows;
}

class StatsCommandE2E : public ::testing::Test {
protected:
  RunResult prof(const std::vector<std::string> &args) {
    std::vector<std::string> argv{kProf};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, dir_, std::chrono::seconds(120));
  }
  prof::testing::ScratchDir scratch_{"prof-stats", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(StatsCommandE2E, GcuActivityMatchesTheCapturesSummary) {
  const RunResult capture = prof({"--enable-activities", "*/general/operator|Api Trace/RUNTIME/*",
                                  "-o", "r", kTrain, "--steps", "2", "--quiet"});
  ASSERT_EQ(capture.exit_code, 0) << capture.describe();
  const auto summary = gcu_rows(capture.out);
  ASSERT_GT(summary.size(), 4u) << capture.out;

  const std::string report = (dir_ / "r.profrep").string();
  const RunResult stats = prof({"stats", report, "--report", "gcu-activity"});
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_EQ(stats.err, "");
  EXPECT_EQ(split_lines(stats.out).front(), "======== GCU activities:");
  EXPECT_EQ(gcu_rows(stats.out), summary) << "capture:\n" << capture.out << "stats:\n" << stats.out;

  const RunResult json = prof({"stats", report, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.describe();
  prof::testing::Json parsed;
  ASSERT_NO_THROW(parsed = prof::testing::JsonParser::parse(json.out)) << json.out;
  ASSERT_TRUE(parsed.has("gcu-activity")) << json.out;
  ASSERT_TRUE(parsed.has("api")) << json.out;
  const auto &rows = parsed["gcu-activity"]["rows"].items;
  ASSERT_EQ(rows.size(), summary.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]["Name"].text, summary[i].back());
    EXPECT_EQ(rows[i]["Calls"].number, std::stod(summary[i][2]));
  }
}

TEST_F(StatsCommandE2E, BadInputExitsWithTwoAndOneLine) {
  const RunResult none = prof({"stats"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err,
            "prof: stats: give a report, several, or folders of them (see prof stats --help)\n");
  const RunResult missing = prof({"stats", "missing.profrep"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(split_lines(missing.err).size(), 1u) << missing.err;
  const RunResult unknown = prof({"stats", "--report", "gpu", "r.profrep"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err.rfind("prof: stats: unknown report 'gpu' (reports: gcu-activity, ", 0), 0u)
      << unknown.err;
  const RunResult help = prof({"stats", "--help-reports"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("device-gaps"), std::string::npos);
}

} // namespace
