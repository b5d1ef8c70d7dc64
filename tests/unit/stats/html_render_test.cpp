// The HTML page of `prof stats --format html` as a person sees it: rendered
// by headless Chromium (Debian's) for synthetic jobs of 4 ranks (one slow
// rank), 256 and 4096 ranks (a slow node of 8), each a merged report written
// in the test (slow_node_job.hpp). A checker added to the test's copy of the
// page measures what Chromium laid out: the charts fit the window, the heat
// map's cells are big enough to see, its legend and labels are inside it and
// never overlap, the slow ranks are named at the top and are the only dark
// cells, on rows of their own; no console heading is left, and a click on a
// heading sorts its table. Screenshots stay in the scratch folder for a
// person to look at (kept on failure, or with PROF_E2E_KEEP set).
#include "slow_node_job.hpp"

#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace prof::stats {
namespace {

namespace fs = std::filesystem;
using e2e::run_process;
using e2e::RunResult;

// Measures the laid-out page and writes key=value lines into pre#layout.
constexpr const char *kChecker = R"(<script>
(function () {
  var out = [];
  function put(k, v) { out.push(k + '=' + v); }
  var svg = document.getElementById('lateness-heatmap');
  var box = svg.getBoundingClientRect();
  put('heatmap_right', Math.round(box.right));
  var cells = svg.querySelectorAll('rect.cell'), minW = 1e9, minH = 1e9;
  cells.forEach(function (c) { var b = c.getBoundingClientRect();
    minW = Math.min(minW, b.width); minH = Math.min(minH, b.height); });
  put('cells', cells.length); put('cell_min_width', minW.toFixed(1));
  put('cell_min_height', minH.toFixed(1));
  var outside = 0;
  svg.querySelectorAll('text, g.legend rect').forEach(function (t) {
    var b = t.getBoundingClientRect();
    if (b.left < box.left - 0.5 || b.right > box.right + 0.5 || b.top < box.top - 0.5 ||
        b.bottom > box.bottom + 0.5) outside++;
  });
  put('outside', outside);
  function overlaps(selector, vertical) {
    var boxes = Array.prototype.map.call(document.querySelectorAll(selector),
        function (t) { return t.getBoundingClientRect(); });
    boxes.sort(function (a, b) { return vertical ? a.top - b.top : a.left - b.left; });
    var n = 0;
    for (var i = 1; i < boxes.length; i++)
      if (vertical ? boxes[i].top < boxes[i - 1].bottom - 0.5
                   : boxes[i].left < boxes[i - 1].right - 0.5) n++;
    return n + '/' + boxes.length;
  }
  put('rank_labels', overlaps('#lateness-heatmap text.rank-label', true));
  put('op_labels', overlaps('#lateness-heatmap text.op-label', false));
  put('bar_labels', overlaps('#communication-bars text.rank-label', true));
  var widest = 0;
  document.querySelectorAll('svg.chart').forEach(function (c) {
    widest = Math.max(widest, c.getBoundingClientRect().right); });
  put('charts_right', Math.round(widest));
  // Dark cells (past the scale's orange middle, green under 141) by row.
  var darkOutliers = 0, darkOthers = 0;
  cells.forEach(function (c) {
    var green = parseInt(c.getAttribute('fill').substr(3, 2), 16);
    if (green < 141) { if (c.classList.contains('outlier')) darkOutliers++; else darkOthers++; }
  });
  put('dark_outlier_cells', darkOutliers); put('dark_other_cells', darkOthers);
  put('outlier_labels', svg.querySelectorAll('text.rank-label.outlier').length);
  var top = document.getElementById('outliers');
  put('outliers_top', top ? Math.round(top.getBoundingClientRect().top) : -1);
  put('outliers_text', top ? top.innerText.replace(/\s+/g, ' ') : '');
  put('console_headings', document.body.innerText.indexOf('========') >= 0 ? 1 : 0);
  var th = document.querySelectorAll('#most-skewed th')[1];
  th.click();
  var values = Array.prototype.map.call(th.closest('table').tBodies[0].rows,
      function (row) { return Number(row.cells[1].dataset.v); });
  var sorted = values.every(function (v, i) { return i == 0 || values[i - 1] >= v; });
  put('sorted_descending', sorted ? 1 : 0);
  put('sorted_rows', values.length);
  var pre = document.createElement('pre'); pre.id = 'layout';
  pre.textContent = '\n' + out.join('\n') + '\n';
  document.body.appendChild(pre);
})();
</script>
)";

/// A job and what its page must name at the top.
struct Job {
  size_t ranks, per_node;
  std::vector<size_t> slow;
  std::string named; ///< in the outliers section
};

class HtmlRender : public ::testing::TestWithParam<Job> {
protected:
  void SetUp() override {
    const RunResult which = run_process({"/bin/sh", "-c", "command -v chromium"}, dir_);
    if (which.exit_code != 0) GTEST_SKIP() << "no chromium (Debian's chromium) to render with";
    chromium_ = which.out.substr(0, which.out.find('\n'));
  }
  RunResult chromium(const std::vector<std::string> &args) {
    std::vector<std::string> command{chromium_,           "--headless",
                                     "--no-sandbox",      "--disable-gpu",
                                     "--hide-scrollbars", "--window-size=1400,1700"};
    command.insert(command.end(), args.begin(), args.end());
    return run_process(command, dir_, std::chrono::seconds(90));
  }

  testing::ScratchDir scratch_{"prof-html-render", testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
  std::string chromium_;
};

TEST_P(HtmlRender, ASlowRankOrNodeIsSeenAtAGlance) {
  const Job &job = GetParam();
  testing::SlowNodeJob shape{job.ranks, job.per_node, 24, job.slow};
  const std::string page = testing::slow_node_page(shape, (dir_ / "job.profrep").string()).html;
  const fs::path shown = dir_ / "page.html", checked = dir_ / "checked.html";
  std::ofstream(shown) << page;
  std::string with_checker = page;
  with_checker.insert(with_checker.rfind("</body>"), kChecker);
  std::ofstream(checked) << with_checker;

  const RunResult dom = chromium({"--dump-dom", "file://" + checked.string()});
  ASSERT_EQ(dom.exit_code, 0) << dom.describe();
  std::map<std::string, std::string> facts;
  const size_t at = dom.out.find("<pre id=\"layout\">");
  ASSERT_NE(at, std::string::npos) << dom.out.substr(0, 3000);
  std::istringstream lines(dom.out.substr(at, dom.out.find("</pre>", at) - at));
  for (std::string line; std::getline(lines, line);)
    if (const size_t eq = line.find('='); eq != std::string::npos)
      facts[line.substr(0, eq)] = line.substr(eq + 1);
  const auto number = [&facts](const char *key) { return std::stod(facts.at(key)); };
  EXPECT_LE(number("heatmap_right"), 1400) << "the heat map fits the window";
  EXPECT_LE(number("charts_right"), 1400) << "every chart fits the window";
  EXPECT_GE(number("cells"), 1.0);
  EXPECT_GE(number("cell_min_width"), 4.5) << "cells wide enough to see";
  EXPECT_GE(number("cell_min_height"), 5.0) << "rows high enough to see";
  EXPECT_EQ(facts.at("outside"), "0") << "labels and legend inside the chart";
  EXPECT_EQ(facts.at("rank_labels").substr(0, 2), "0/") << facts.at("rank_labels");
  EXPECT_EQ(facts.at("op_labels").substr(0, 2), "0/") << facts.at("op_labels");
  EXPECT_EQ(facts.at("bar_labels").substr(0, 2), "0/") << facts.at("bar_labels");
  // The slow ranks: named first on the page, each on a labelled row of its
  // own, dark in each of its 8 late operations; nothing else dark.
  EXPECT_GE(number("outliers_top"), 0) << "an outliers section";
  EXPECT_LT(number("outliers_top"), 200) << "at the top of the page";
  EXPECT_NE(facts.at("outliers_text").find(job.named), std::string::npos)
      << facts.at("outliers_text");
  EXPECT_EQ(number("outlier_labels"), static_cast<double>(job.slow.size()));
  EXPECT_EQ(number("dark_outlier_cells"), static_cast<double>(job.slow.size() * 8));
  EXPECT_EQ(facts.at("dark_other_cells"), "0");
  EXPECT_EQ(facts.at("console_headings"), "0");
  EXPECT_EQ(facts.at("sorted_descending"), "1") << "a click on Skew sorted by it";
  EXPECT_EQ(facts.at("sorted_rows"), "10");

  // The screenshot a person looks at: a real image, not an empty page.
  const fs::path png = dir_ / ("ranks-" + std::to_string(job.ranks) + ".png");
  const RunResult shot = chromium({"--screenshot=" + png.string(), "file://" + shown.string()});
  ASSERT_EQ(shot.exit_code, 0) << shot.describe();
  std::ifstream in(png, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  EXPECT_GT(bytes.size(), 20'000u) << "an empty 1400x1700 page compresses to a few KB";
}

INSTANTIATE_TEST_SUITE_P(
    Ranks, HtmlRender,
    ::testing::Values(Job{4, 2, {2}, "rank 2"},
                      Job{256, 8, {40, 41, 42, 43, 44, 45, 46, 47}, "node005"},
                      Job{4096, 8, {40, 41, 42, 43, 44, 45, 46, 47}, "node005"}),
    [](const auto &info) { return std::to_string(info.param.ranks) + "Ranks"; });

} // namespace
} // namespace prof::stats
