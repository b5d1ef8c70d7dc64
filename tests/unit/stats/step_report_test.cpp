// `prof stats --report steps`: each rank's time in each step, the slowest
// rank and the spread, on four ranks of which one is slow on step 2; and the
// chart of the HTML page.
#include "stats_report_fixture.hpp"
#include "stats_test_report.hpp"
#include "tests/support/json_check.hpp"

#include "tools/prof/stats/stats_scan.hpp"
#include <prof/stats/html_page.hpp>
#include <prof/stats/rank_charts.hpp>
#include <prof/stats/stats_reports.hpp>
#include <prof/stats/step_times.hpp>

#include <gtest/gtest.h>

#include <array>

namespace prof::stats {
namespace {

using prof::testing::Json;
using prof::testing::JsonParser;
using testing::kOrigin;
using testing::kUs;
using testing::split;
using testing::value;
using Lines = std::vector<std::string>;

size_t count(const std::string &text, const std::string &part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

const std::string kRank0 = "train [node rank 0] (10)", kRank1 = "train [node rank 1] (11)",
                  kRank2 = "train [node rank 2] (12)", kRank3 = "train [node rank 3] (13)";

// Four ranks as a merged report has them; times in us:
//   step 1: rank 0 1000, rank 1 1010, rank 2 990, rank 3 1000
//   step 2: rank 0 1000, rank 1 2490 (its main thread [1010, 2000) and a
//           second thread's slice of step 2 [1200, 3500)), rank 2 1010
//   step 3: rank 0 1020, rank 1 1000, rank 2 980
// Rank 2 names its step slices otherwise, rank 3 gives its number as a
// signed argument; slices that are no step are left out.
testing::TestReport step_report() {
  testing::TestReport r;
  const auto us = [](uint64_t t) { return kOrigin + t * kUs; };
  std::vector<uint32_t> process, main;
  for (int rank = 0; rank < 4; ++rank) {
    process.push_back(r.process("train [node rank " + std::to_string(rank) + "]", 10 + rank));
    main.push_back(r.thread(process.back(), "train", 10 + rank));
  }
  r.step(main[0], us(0), 1000 * kUs, 1);
  r.step(main[0], us(1000), 1000 * kUs, 2);
  r.step(main[0], us(2000), 1020 * kUs, 3);
  r.step(main[1], us(0), 1010 * kUs, 1);
  r.step(main[1], us(1010), 990 * kUs, 2);
  const uint32_t worker = r.thread(process[1], "worker", 111);
  r.step(worker, us(1200), 2300 * kUs, 2);
  r.step(main[1], us(3500), 1000 * kUs, 3);
  r.step(main[2], us(0), 990 * kUs, 1, "ProfilerStep#1");
  r.step(main[2], us(990), 1010 * kUs, 2, "ProfilerStep#2");
  r.step(main[2], us(2000), 980 * kUs, 3, "ProfilerStep#3");
  r.step(main[3], us(0), 1000 * kUs, 1, "step", true);
  // No steps: an annotation without the argument, a slice of another kind.
  r.annotation(main[3], us(1000), 5000 * kUs, "step");
  r.slice(main[3], us(1000), 9000 * kUs, "step", "torch", PROF_CATEGORY_OPERATOR);
  return r;
}

class StepReport : public testing::ReportFixture {
protected:
  void SetUp() override { open(step_report(), 3); }
};

TEST_F(StepReport, EachStepsRanksSlowestAndSpread) {
  const StatsTable table = one("steps");
  ASSERT_EQ(table.sections.size(), 2u);
  ASSERT_EQ(table.sections[0].rows.size(), 3u);
  EXPECT_EQ(value(table, 0, 0, "Step"), "1");
  EXPECT_EQ(value(table, 0, 0, "Ranks"), "4");
  EXPECT_EQ(value(table, 0, 0, "Min(ns)"), "990000");
  EXPECT_EQ(value(table, 0, 0, "Avg(ns)"), "1000000");
  EXPECT_EQ(value(table, 0, 0, "Max(ns)"), "1010000");
  EXPECT_EQ(value(table, 0, 0, "Spread(ns)"), "20000");
  EXPECT_EQ(value(table, 0, 0, "Slowest"), kRank1);
  EXPECT_EQ(value(table, 0, 1, "Step"), "2");
  EXPECT_EQ(value(table, 0, 1, "Ranks"), "3");
  EXPECT_EQ(value(table, 0, 1, "Min(ns)"), "1000000");
  EXPECT_EQ(value(table, 0, 1, "Avg(ns)"), "1500000");
  EXPECT_EQ(value(table, 0, 1, "Max(ns)"), "2490000");
  EXPECT_EQ(value(table, 0, 1, "Spread(ns)"), "1490000");
  EXPECT_EQ(value(table, 0, 1, "Slowest"), kRank1);
  EXPECT_EQ(value(table, 0, 2, "Avg(ns)"), "1000000");
  EXPECT_EQ(value(table, 0, 2, "Spread(ns)"), "40000");
  EXPECT_EQ(value(table, 0, 2, "Slowest"), kRank0);

  // Per step and rank, ranks in natural order.
  const std::vector<std::array<std::string, 4>> per_rank{
      {"1", kRank0, "1000000", "1.01"}, {"1", kRank1, "1010000", "2.02"},
      {"1", kRank2, "990000", "0"},     {"1", kRank3, "1000000", "1.01"},
      {"2", kRank0, "1000000", "0"},    {"2", kRank1, "2490000", "149"},
      {"2", kRank2, "1010000", "1"},    {"3", kRank0, "1020000", "4.08"},
      {"3", kRank1, "1000000", "2.04"}, {"3", kRank2, "980000", "0"},
  };
  ASSERT_EQ(table.sections[1].rows.size(), per_rank.size());
  for (size_t row = 0; row < per_rank.size(); ++row) {
    EXPECT_EQ(value(table, 1, row, "Step"), per_rank[row][0]) << row;
    EXPECT_EQ(value(table, 1, row, "Process"), per_rank[row][1]) << row;
    EXPECT_EQ(value(table, 1, row, "Time(ns)"), per_rank[row][2]) << row;
    EXPECT_EQ(value(table, 1, row, "Slower(%)"), per_rank[row][3]) << row;
  }
  ASSERT_EQ(table.notes.size(), 2u);
  EXPECT_EQ(table.notes[0], kRank1 + " was the slowest rank in 2 of 3 steps");

  const Lines expected{
      "======== Steps across ranks:",
      "Step  Ranks       Min     Avg     Max   Spread  Slowest",
      "   1      4  990.00us  1.00ms  1.01ms  20.00us  " + kRank1,
      "   2      3    1.00ms  1.50ms  2.49ms   1.49ms  " + kRank1,
      "   3      3  980.00us  1.00ms  1.02ms  40.00us  " + kRank0,
      "======== Steps per rank:",
      "Step  Process                       Time  Slower(%)",
      "   1  " + kRank0 + "    1.00ms      1.01%",
      "   1  " + kRank1 + "    1.01ms      2.02%",
      "   1  " + kRank2 + "  990.00us      0.00%",
  };
  const Lines text = split(render_table({table}));
  ASSERT_GE(text.size(), expected.size());
  EXPECT_EQ(Lines(text.begin(), text.begin() + expected.size()), expected);
  EXPECT_EQ(text.at(12), "   2  " + kRank1 + "    2.49ms    149.00%");
}

TEST_F(StepReport, CsvAndJsonCarryBothKindsOfRows) {
  const StatsTable table = one("steps");
  const Lines csv = split(render_csv({table}));
  ASSERT_EQ(csv.size(), 1u + 3u + 1u + 1u + 10u + 2u);
  EXPECT_EQ(csv[0], "Step,Ranks,Min(ns),Avg(ns),Max(ns),Spread(ns),Slowest");
  EXPECT_EQ(csv[2], "2,3,1000000,1500000,2490000,1490000," + kRank1);
  EXPECT_EQ(csv[4], "");
  EXPECT_EQ(csv[5], "Step,Process,Time(ns),Slower(%)");
  EXPECT_EQ(csv[11], "2," + kRank1 + ",2490000,149");
  EXPECT_EQ(csv[16], "# " + kRank1 + " was the slowest rank in 2 of 3 steps");

  const Json json = JsonParser::parse(render_json({table}));
  const auto &rows = json["steps"]["rows"].items;
  ASSERT_EQ(rows.size(), 13u);
  EXPECT_EQ(rows[1]["Step"].number, 2);
  EXPECT_EQ(rows[1]["Spread(ns)"].number, 1490000);
  EXPECT_EQ(rows[1]["Slowest"].text, kRank1);
  EXPECT_FALSE(rows[1].has("Process"));
  EXPECT_EQ(rows[8]["Step"].number, 2);
  EXPECT_EQ(rows[8]["Process"].text, kRank1);
  EXPECT_EQ(rows[8]["Time(ns)"].number, 2490000);
  EXPECT_EQ(rows[8]["Slower(%)"].number, 149);
  EXPECT_FALSE(rows[8].has("Slowest"));
  EXPECT_EQ(json["steps"]["notes"].items.size(), 2u);
}

TEST_F(StepReport, HtmlChartHasALinePerRankAndAPointPerStepAndRank) {
  StatsScope scope = scope_for({"steps"}, {});
  StatsAggregator aggregator = tool::scan_report(reader_, host_->host(), scope).aggregator;
  const RankCharts charts = rank_charts(aggregator, host_->host());
  // Labelled by rank and node, as the page's other charts.
  ASSERT_EQ(charts.steps.ranks,
            (std::vector<std::string>{"rank 0 \u00b7 node", "rank 1 \u00b7 node",
                                      "rank 2 \u00b7 node", "rank 3 \u00b7 node"}));
  ASSERT_EQ(charts.steps.steps.size(), 3u);
  EXPECT_EQ(charts.steps.steps[1].number, 2u);
  EXPECT_EQ(charts.steps.steps[1].times, (std::vector<std::pair<size_t, uint64_t>>{
                                             {0, 1000 * kUs}, {1, 2490 * kUs}, {2, 1010 * kUs}}));
  const std::string page =
      render_html({build_report("steps", aggregator, host_->host(), {})}, charts, "steps");
  EXPECT_EQ(count(page, "<svg id=\"step-times\""), 1u);
  EXPECT_EQ(count(page, "class=\"rank-line\""), 4u);
  EXPECT_EQ(count(page, "class=\"step-point\""), 10u);
  EXPECT_EQ(count(page, "<title>rank 1 \u00b7 node, step 2: 2.49ms</title>"), 1u);
  EXPECT_EQ(count(page, "<h3>Steps across ranks</h3>"), 1u);
  EXPECT_EQ(count(page, "<h3>Steps per rank</h3>"), 1u);
  EXPECT_EQ(count(page, "<th title=\"sort by Slower(%)\">Slower(%)</th>"), 1u);
  // The slowest point, rank 1's step 2, is at the top of the plot.
  EXPECT_EQ(count(page, "cy=\"10.0\""), 1u);
  EXPECT_EQ(count(page, "lateness-heatmap"), 0u);

  // Without steps, no chart.
  open(testing::known_report(), 3);
  StatsAggregator none = tool::scan_report(reader_, host_->host(), scope).aggregator;
  EXPECT_EQ(count(render_html({}, rank_charts(none, host_->host()), "x"), "<svg"), 0u);
}

TEST_F(StepReport, EmptyReportSaysSo) {
  open(testing::known_report(), 3); // its "step" range has no step argument
  const StatsTable table = one("steps");
  EXPECT_EQ(render_table({table}), "======== Steps: none in this report\n");
  EXPECT_EQ(render_csv({table}), "Step,Ranks,Min(ns),Avg(ns),Max(ns),Spread(ns),Slowest\n");
  EXPECT_TRUE(JsonParser::parse(render_json({table}))["steps"]["rows"].items.empty());
}

} // namespace
} // namespace prof::stats
