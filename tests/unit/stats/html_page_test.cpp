// The HTML page of `prof stats --format html`: charts drawn from the ranks'
// collectives, every table and note, text escaped, nothing fetched.
#include <prof/stats/html_page.hpp>

#include <gtest/gtest.h>

#include <string>

namespace prof::stats {
namespace {

size_t count(const std::string &text, const std::string &part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

StatsTable sample_table() {
  StatsTable table{"stragglers", "Communicator", {}, {}, "", {}};
  table.columns = {{"Name", "Name", Align::Left}, {"Ops", "Operations", Align::Right}};
  table.sections.push_back(
      {"world", "======== Stragglers (world):", {{Cell::of_text("<bcast>"), Cell::of_count(3)}}});
  table.notes.push_back("late: world AllReduce #2: rank \"1\" last, 50.00ms after the first");
  return table;
}

TEST(HtmlPage, ChartsTablesAndNotesEscaped) {
  RankCharts charts;
  charts.ranks = {"app (rank 0)", "app (rank 1) & co"};
  charts.operations = {"AllReduce #1 on world", "AllReduce #2 on world", "Barrier #3 on world"};
  charts.lateness = {{0, 0, -1}, {10, 50'000'000, 0}};
  charts.communication = {{{"AllReduce", 100}, {"Barrier", 50}}, {{"AllReduce", 10}}};
  const std::string page = render_html({sample_table()}, charts, "prof stats: a<b");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(page, "<title>prof stats: a&lt;b</title>"), 1u);
  EXPECT_EQ(count(page, "<svg id=\"lateness-heatmap\""), 1u);
  EXPECT_EQ(count(page, "class=\"cell\""), 3u) << "on time (white) is not drawn";
  EXPECT_EQ(count(page, "fill=\"#b30000\""), 1u) << "the latest arrival";
  EXPECT_EQ(count(page, "fill=\"#d9d9d9\""), 2u) << "a rank not in the operation, and the legend";
  EXPECT_EQ(count(page, "<svg id=\"communication-bars\""), 1u);
  EXPECT_EQ(count(page, "class=\"part\""), 3u);
  // Heat map: the label and its tooltip, 2 cells; bars: the label, the part.
  EXPECT_EQ(count(page, "app (rank 1) &amp; co"), 2u + 2u + 1u + 1u);
  EXPECT_EQ(count(page, "<td>&lt;bcast&gt;</td><td class=\"n\" data-v=\"3\">3</td>"), 1u);
  // Headings as a page's, not the console's.
  EXPECT_EQ(count(page, "<h3>Stragglers (world)</h3>"), 1u);
  EXPECT_EQ(count(page, "========"), 0u);
  EXPECT_EQ(count(page, "<table class=\"sortable\">"), 1u);
  EXPECT_EQ(count(page, "<li>late: world AllReduce #2: rank &quot;1&quot; last"), 1u);
  // Self-contained: one inline script (sorting) and nothing to fetch.
  EXPECT_EQ(count(page, "<script>"), 1u);
  EXPECT_EQ(count(page, "src="), 0u);
  EXPECT_EQ(count(page, "href="), 0u);
}

TEST(HtmlPage, StepChartDrawsTheFirst400Steps) {
  RankCharts charts;
  charts.steps.ranks = {"rank <0>", "rank 1"};
  for (uint64_t step = 1; step <= 401; ++step)
    charts.steps.steps.push_back({step, {{0, 1000 + step}, {1, 2000}}});
  charts.steps.steps.back().times.pop_back(); // rank 1 missed the last step
  const std::string page = render_html({}, charts, "prof stats");
  EXPECT_EQ(count(page, "<svg id=\"step-times\""), 1u);
  EXPECT_EQ(count(page, "class=\"rank-line\""), 2u);
  EXPECT_EQ(count(page, "class=\"step-point\""), 800u);
  EXPECT_EQ(count(page, "rank &lt;0&gt;, step 400: 1.40us"), 1u);
  EXPECT_EQ(count(page, "step 401"), 0u);
  EXPECT_EQ(count(page, "<p>The first 400 steps; 1 more are left out.</p>"), 1u);
  EXPECT_EQ(count(page, ">step 1</text>"), 1u);
  EXPECT_EQ(count(page, ">step 400</text>"), 1u);
  EXPECT_EQ(count(page, ">2.00us</text>"), 1u) << "the y axis goes up to the longest";
}

// 256 ranks in 400 operations: six ranks to a row (43 rows: about
// kMaxGroupRows), three operations to a column (a column at least 6 pixels
// of the 960), a label on every row; only the one late cell drawn.
TEST(HtmlPage, ManyRanksShareRowsAndManyOperationsShareColumns) {
  RankCharts charts;
  for (int r = 0; r < 256; ++r)
    charts.ranks.push_back("rank " + std::to_string(r));
  for (int op = 1; op <= 400; ++op)
    charts.operations.push_back("AllReduce #" + std::to_string(op) + " on world");
  charts.lateness.assign(256, std::vector<int64_t>(400, 0));
  charts.lateness[7][398] = 5'000'000; // in the last full column, with 397 and 399
  const std::string page = render_html({}, charts, "many");
  EXPECT_EQ(count(page, "class=\"cell\""), 1u);
  EXPECT_EQ(count(page, "class=\"rank-label\""), 43u);
  EXPECT_EQ(count(page, "<title>rank 6 \u2026 rank 11 (6 ranks), operations 397 to 399: at worst "
                        "5.00ms after the first (rank 7)</title>"),
            1u);
  EXPECT_EQ(count(page, "a column is 3 operations, showing the latest of them"), 1u);
  EXPECT_EQ(count(page, "a row of several ranks shows the latest of them"), 1u);
  EXPECT_EQ(count(page, ">400</text>"), 1u) << "the operation axis reaches the last";
}

// Operations binned by rank_charts (60 of 6000 to a column): the axis
// counts operations, not columns, and a column names its run.
TEST(HtmlPage, BinnedOperationsCountOnTheAxis) {
  RankCharts charts;
  charts.ranks = {"rank 0", "rank 1", "rank 2"};
  charts.operation_count = 6000;
  charts.operations_per_column = 60;
  for (int c = 0; c < 100; ++c)
    charts.operations.push_back("AllReduce #" + std::to_string(c * 60 + 1) + " to #" +
                                std::to_string(c * 60 + 60) + " on world");
  charts.lateness.assign(3, std::vector<int64_t>(100, 1000));
  charts.lateness[2][99] = 9'000'000;
  const std::string page = render_html({}, charts, "binned");
  EXPECT_EQ(count(page, ">6000</text>"), 1u);
  EXPECT_EQ(count(page, "a column is 60 operations"), 1u);
  EXPECT_EQ(count(page, "<title>rank 2, AllReduce #5941 to #6000 on world: at worst 9.00ms after "
                        "the first</title>"),
            1u);
  EXPECT_EQ(count(page, "fill=\"#b30000\""), 1u);
}

TEST(HtmlPage, WithoutCollectivesOnlyTheTables) {
  const std::string page = render_html({sample_table()}, RankCharts{}, "prof stats");
  EXPECT_EQ(count(page, "<svg"), 0u);
  EXPECT_EQ(count(page, "<section class=\"report\" id=\"report-stragglers\">"), 1u);
}

} // namespace
} // namespace prof::stats
