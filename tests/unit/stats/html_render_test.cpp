// The HTML page of `prof stats --format html` as a person sees it: rendered
// by headless Chromium (Debian's) for 4 and for 256 synthetic ranks. A
// checker added to the test's copy of the page measures what Chromium laid
// out: the heat map fits the window, its cells are big enough to see, its
// legend and labels are inside it and never overlap, no console heading is
// left, and a click on a heading sorts its table. Screenshots of both pages
// stay in the scratch folder for a person to look at (kept on failure).
#include <prof/stats/html_page.hpp>

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

/// `ranks` ranks in `operations` all-reduces, rank 1 late in every tenth
/// and very late once; each rank's time by name, set-up apart; 30 steps;
/// a table with numbers to sort.
std::string synthetic_page(size_t ranks, size_t operations) {
  RankCharts charts;
  for (size_t r = 0; r < ranks; ++r)
    charts.ranks.push_back("train.py (rank " + std::to_string(r) + ")");
  for (size_t op = 0; op < operations; ++op)
    charts.operations.push_back("AllReduce #" + std::to_string(op + 1) + " on world");
  charts.lateness.assign(ranks, std::vector<int64_t>(operations, 0));
  for (size_t r = 0; r < ranks; ++r)
    for (size_t op = 0; op < operations; ++op)
      charts.lateness[r][op] = static_cast<int64_t>((r * 7919 + op * 104729) % 200'000);
  for (size_t op = 0; op < operations; op += 10)
    charts.lateness[1 % ranks][op] = 3'000'000;
  charts.lateness[1 % ranks][operations / 2] = 90'000'000;
  charts.lateness[0][operations - 1] = -1;
  charts.communication.resize(ranks);
  charts.other_communication.resize(ranks);
  charts.steps.ranks = charts.ranks;
  for (size_t r = 0; r < ranks; ++r) {
    charts.communication[r] = {{"AllReduce", 400'000'000 + r * 1'000'000}, {"Barrier", 5'000'000}};
    charts.other_communication[r] = {{"Init", 2'000'000'000}, {"Finalize", 40'000'000}};
  }
  for (uint64_t step = 1; step <= 30; ++step) {
    StepTimes::Step s{step, {}};
    for (size_t r = 0; r < ranks; ++r)
      s.times.emplace_back(r, 100'000'000 + (r == 1 ? 20'000'000 : 0) + step * 100'000);
    charts.steps.steps.push_back(std::move(s));
  }
  StatsTable table{"stragglers", "Communicator", {}, {}, "", {}};
  table.columns = {{"Rank", "Rank", Align::Left}, {"Late", "Late", Align::Right}};
  Section section{"world", "======== Stragglers (world):", {}};
  for (size_t r = 0; r < std::min<size_t>(ranks, 12); ++r)
    section.rows.push_back(
        {Cell::of_text(charts.ranks[r]), Cell::of_ns((r * 37) % 11 * 1'000'000 + r)});
  table.sections.push_back(std::move(section));
  return render_html({table}, charts, "prof stats: " + std::to_string(ranks) + " ranks");
}

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
  put('console_headings', document.body.innerText.indexOf('========') >= 0 ? 1 : 0);
  var th = document.querySelectorAll('table.sortable th')[1];
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

class HtmlRender : public ::testing::TestWithParam<std::pair<size_t, size_t>> {
protected:
  void SetUp() override {
    const RunResult which = run_process({"/bin/sh", "-c", "command -v chromium"}, dir_);
    if (which.exit_code != 0) GTEST_SKIP() << "no chromium (Debian's chromium) to render with";
    chromium_ = which.out.substr(0, which.out.find('\n'));
  }
  RunResult chromium(const std::vector<std::string> &args) {
    std::vector<std::string> command{chromium_,           "--headless",
                                     "--no-sandbox",      "--disable-gpu",
                                     "--hide-scrollbars", "--window-size=1400,1000"};
    command.insert(command.end(), args.begin(), args.end());
    return run_process(command, dir_, std::chrono::seconds(90));
  }

  testing::ScratchDir scratch_{"prof-html-render", testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
  std::string chromium_;
};

TEST_P(HtmlRender, AChromiumRenderingIsLegibleAndSorts) {
  const auto [ranks, operations] = GetParam();
  const std::string page = synthetic_page(ranks, operations);
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
  EXPECT_GE(number("cells"), static_cast<double>(ranks)) << "a cell per rank and column";
  EXPECT_GE(number("cell_min_width"), 4.5) << "cells wide enough to see";
  EXPECT_GE(number("cell_min_height"), ranks > 100 ? 2.0 : 10.0);
  EXPECT_EQ(facts.at("outside"), "0") << "labels and legend inside the chart";
  EXPECT_EQ(facts.at("rank_labels").substr(0, 2), "0/") << facts.at("rank_labels");
  EXPECT_EQ(facts.at("op_labels").substr(0, 2), "0/") << facts.at("op_labels");
  EXPECT_EQ(facts.at("bar_labels").substr(0, 2), "0/") << facts.at("bar_labels");
  const std::string &labels = facts.at("rank_labels");
  EXPECT_GE(std::stoul(labels.substr(labels.find('/') + 1)), std::min<size_t>(ranks, 40u))
      << "rank labels thinned, not dropped";
  EXPECT_EQ(facts.at("console_headings"), "0");
  EXPECT_EQ(facts.at("sorted_descending"), "1") << "a click on Late sorted by it";
  EXPECT_EQ(facts.at("sorted_rows"), std::to_string(std::min<size_t>(ranks, 12)));

  // The screenshot a person looks at: a real image, not an empty page.
  const fs::path png = dir_ / ("ranks-" + std::to_string(ranks) + ".png");
  const RunResult shot = chromium({"--screenshot=" + png.string(), "file://" + shown.string()});
  ASSERT_EQ(shot.exit_code, 0) << shot.describe();
  std::ifstream in(png, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  EXPECT_GT(bytes.size(), 20'000u) << "an empty 1400x1000 page compresses to a few KB";
}

INSTANTIATE_TEST_SUITE_P(Ranks, HtmlRender,
                         ::testing::Values(std::pair<size_t, size_t>{4, 21},
                                           std::pair<size_t, size_t>{256, 400}),
                         [](const auto &info) {
                           return std::to_string(info.param.first) + "Ranks";
                         });

} // namespace
} // namespace prof::stats
