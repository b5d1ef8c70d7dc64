// The HTML page of `prof stats --format html` at many ranks, from reports of
// a synthetic job with a slow node (slow_node_job.hpp): ranks named by rank
// and node, the ranks of a node together, the outlier ranks on rows of their
// own at the top of the heat map, nothing else in red, and a small page.
#include "slow_node_job.hpp"

#include "core/plugin_host/console.hpp"
#include "tests/support/file_text.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/synthetic_job.hpp"
#include "tools/prof/stats/stats_command.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace prof::stats {
namespace {

using testing::node_of;
using testing::slow_node_page;
using testing::SlowNodeJob;

size_t count(const std::string &text, const std::string &part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

/// The heat map's cells: (outlier row, green channel of the fill): the
/// scale goes from white through orange (green 141) to dark red (green 0).
std::vector<std::pair<bool, int>> cells(const std::string &page) {
  static const std::regex cell(R"(<rect class="cell( outlier)?"[^>]* fill="#..(..)..")");
  std::vector<std::pair<bool, int>> out;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), cell); it != std::sregex_iterator();
       ++it)
    out.emplace_back((*it)[1].matched, std::stoi((*it)[2].str(), nullptr, 16));
  return out;
}

TEST(HtmlAtScale, LabelsLeadWithRankAndNodeAndKeepTheCommandInATooltip) {
  prof::testing::ScratchDir dir;
  const auto page = slow_node_page({16, 8, 6, {}}, dir.file("r.profrep"));
  ASSERT_EQ(page.charts.ranks.size(), 16u);
  EXPECT_EQ(page.charts.ranks[0], "rank 0 \u00b7 node000");
  EXPECT_EQ(page.charts.ranks[15], "rank 15 \u00b7 node001");
  ASSERT_EQ(page.charts.full_labels.size(), 16u);
  EXPECT_EQ(page.charts.full_labels[9], "python3 conv_ddp.py 6 1 3 0.3 (rank 9) [node001] (20009)");
  EXPECT_EQ(page.charts.nodes[9], "node001");
  EXPECT_EQ(count(page.html, "<title>python3 conv_ddp.py 6 1 3 0.3 (rank 9) [node001] "
                             "(20009)</title>rank 9 \u00b7 node001</text>"),
            1u);
  EXPECT_EQ(count(page.html, "class=\"node-line\""), 1u) << "a line between the two nodes";
  EXPECT_EQ(count(page.html, "id=\"outliers\""), 0u) << "no rank differs";
}

// 400 operations: every one counts, 3 to a column (kMaxOperationColumns).
TEST(HtmlAtScale, EveryOperationIsBinnedByItsSequence) {
  prof::testing::ScratchDir dir;
  const auto page = slow_node_page({4, 2, 400, {2}}, dir.file("r.profrep"));
  const RankCharts &charts = page.charts;
  EXPECT_EQ(charts.operation_count, 400u);
  EXPECT_EQ(charts.operations_per_column, 3u);
  ASSERT_EQ(charts.operations.size(), 134u);
  EXPECT_EQ(charts.operations.front(), "AllReduce #1 to #3 on world");
  EXPECT_EQ(charts.operations.back(), "AllReduce #400 on world");
  // Rank 2 is late to operations 2, 5, 8, ... 398: every full column's latest.
  ASSERT_EQ(charts.lateness.size(), 4u);
  for (size_t c = 0; c + 1 < charts.lateness[2].size(); ++c)
    EXPECT_GE(charts.lateness[2][c], static_cast<int64_t>(testing::kSlowBy) - 40'000) << c;
  ASSERT_EQ(charts.mean_lateness.size(), 4u);
  EXPECT_GT(charts.mean_lateness[2], 10 * charts.mean_lateness[0]);
  EXPECT_EQ(charts.outlier_ranks, std::vector<size_t>{2});
  EXPECT_EQ(count(page.html, "<p>The first"), 0u) << "no operation left out";
}

// 4096 ranks, 512 nodes, node005 (ranks 40 to 47) slow: it leads the page,
// its ranks have rows of their own, the others share rows by node.
TEST(HtmlAtScale, ASlowNodeOf4096RanksStandsOutOnASmallPage) {
  prof::testing::ScratchDir dir;
  SlowNodeJob job{4096, 8, 24, {}};
  for (size_t r = 40; r < 48; ++r)
    job.slow.push_back(r);
  const auto page = slow_node_page(job, dir.file("r.profrep"));
  const RankCharts &charts = page.charts;
  ASSERT_EQ(charts.ranks.size(), 4096u);
  ASSERT_FALSE(charts.outlier_nodes.empty());
  EXPECT_EQ(charts.outlier_nodes, std::vector<std::string>{"node005"});
  ASSERT_EQ(charts.outlier_ranks.size(), 8u);
  for (const size_t r : charts.outlier_ranks)
    EXPECT_EQ(charts.nodes[r], "node005") << charts.ranks[r];
  ASSERT_FALSE(charts.most_skewed.empty());
  EXPECT_EQ(charts.nodes[charts.most_skewed.front().last_rank], "node005");
  EXPECT_GE(charts.most_skewed.front().skew, testing::kSlowBy);

  const std::string &html = page.html;
  EXPECT_GE(count(html, "<li class=\"finding\">node005: ranks 40-47"), 1u);
  EXPECT_EQ(count(html, "class=\"rank-label outlier\""), 8u);
  EXPECT_EQ(count(html, "rank 40 \u00b7 node005</text>"), 1u);
  EXPECT_EQ(count(html, ">node000 \u2026 node005 ("), 0u) << "node005's other ranks: none";
  EXPECT_EQ(count(html, "outlier ranks, then the others by node"), 1u);
  size_t dark_outliers = 0, dark_others = 0;
  for (const auto &[outlier, green] : cells(html))
    (outlier ? dark_outliers : dark_others) += green < 141 ? 1 : 0;
  EXPECT_EQ(dark_outliers, 8u * 8) << "each slow rank, in each of its 8 late operations";
  EXPECT_EQ(dark_others, 0u) << "jitter never past the scale's middle";
  EXPECT_EQ(count(html, "<svg id=\"lateness-distribution\""), 1u);
  EXPECT_EQ(count(html, "<svg id=\"communication-distribution\""), 1u);
  EXPECT_EQ(count(html, "<svg id=\"communication-bars\""), 0u);
  EXPECT_EQ(count(html, "class=\"step-percentile\""), 3u);
  EXPECT_EQ(count(html, "class=\"rank-line\""), 8u) << "the slow ranks' steps";
  EXPECT_LT(html.size(), 1'000'000u) << "the page of 4096 ranks stays small";
  ::testing::Test::RecordProperty("page_bytes", static_cast<int>(html.size()));
}

// The command on a folder of 256 rank reports (gen_synthetic_job's), node
// 5 slow: the page names it first and draws its ranks apart.
TEST(HtmlAtScale, TheCommandOnAFolderOfRanksWithASlowNode) {
  prof::testing::ScratchDir dir;
  prof::testing::SyntheticJob job;
  job.ranks = 256;
  job.cause = prof::testing::JobCause::slow_node;
  job.target = 5;
  prof::testing::write_synthetic_job(job, dir.file("ranks"), 1);
  const std::string out = dir.file("ranks.html");
  core::Console console;
  ASSERT_EQ(tool::run_stats({dir.file("ranks"), "--format", "html", "-o", out}, console), 0);
  const std::string html = prof::testing::file_text(out);
  const size_t top = html.find("<li class=\"finding\">node005: ranks 40-47");
  EXPECT_NE(top, std::string::npos);
  EXPECT_LT(top, html.find("<svg")) << "named before any chart";
  EXPECT_EQ(count(html, "class=\"rank-label outlier\""), 8u);
  EXPECT_EQ(count(html, "rank 40 \u00b7 node005</text>"), 1u);
  EXPECT_EQ(count(html, "1536 operations on 128 communicators of fewer than half the ranks"), 1u)
      << "the point-to-point pairs (12 steps of 128) are left out of the charts";
  EXPECT_LT(html.size(), 1'000'000u);
}

} // namespace
} // namespace prof::stats
