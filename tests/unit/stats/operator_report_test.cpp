// `prof stats --report torch-ops`: framework operators by name and pass, and
// with --group-by shapes by input shapes too, on a report with nested
// forward operators and an autograd thread's backward ones.
#include "stats_report_fixture.hpp"
#include "stats_test_report.hpp"
#include "tests/support/json_check.hpp"

#include <prof/stats/stats_reports.hpp>

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

const std::string kLinear2 = "[[2, 8], [16, 8], [16]]", kLinear4 = "[[4, 8], [16, 8], [16]]";
const std::string kAddmm2 = "[[16], [2, 8], [8, 16], [], []]",
                  kAddmm4 = "[[16], [4, 8], [8, 16], [], []]";

// Times in us. Forward on main: two aten::linear (100 each, self 10), each
// calling an aten::addmm (80, self 80); an aten::relu (30) with no `self`
// and no `pass`; an aten::mm (40, self 40) without shapes. Backward on the
// autograd thread: AddmmBackward0 (150, self 30) calling two aten::mm (50
// and 70). Self time in all: 160 + 120 + 40 + 30 + 30 + 20 = 400 us.
testing::TestReport operator_report() {
  testing::TestReport r;
  const auto us = [](uint64_t t) { return kOrigin + t * kUs; };
  const uint32_t train = r.process("train", 7);
  const uint32_t main = r.thread(train, "train", 7);
  const uint32_t autograd = r.thread(train, "pt_autograd_0", 8);
  r.op(main, us(0), 100 * kUs, "aten::linear", "forward", 10 * kUs, kLinear2);
  r.op(main, us(10), 80 * kUs, "aten::addmm", "forward", 80 * kUs, kAddmm2);
  r.op(main, us(200), 100 * kUs, "aten::linear", "forward", 10 * kUs, kLinear4);
  r.op(main, us(210), 80 * kUs, "aten::addmm", "forward", 80 * kUs, kAddmm4);
  r.op(main, us(400), 30 * kUs, "aten::relu");
  r.op(main, us(500), 40 * kUs, "aten::mm", "forward", 40 * kUs);
  r.op(autograd, us(1000), 150 * kUs, "AddmmBackward0", "backward", 30 * kUs);
  r.op(autograd, us(1010), 50 * kUs, "aten::mm", "backward", 50 * kUs, "[[2, 16], [16, 8]]");
  r.op(autograd, us(1070), 70 * kUs, "aten::mm", "backward", 70 * kUs, "[[16, 2], [2, 8]]");
  // Not operators: an annotation and a kernel of the same name.
  r.annotation(main, us(0), 600 * kUs, "aten::mm");
  r.slice(r.track(PROF_TRACK_DEVICE, 0, "GPU 0", 0), us(20), 10 * kUs, "aten::mm", "",
          PROF_CATEGORY_KERNEL);
  return r;
}

class OperatorReport : public testing::ReportFixture {
protected:
  void SetUp() override { open(operator_report(), 3); }
  static ReportOptions by_shapes() {
    ReportOptions options;
    options.group_by = OperatorGrouping::Shapes;
    return options;
  }
};

TEST_F(OperatorReport, ByNameWithForwardAndBackwardApart) {
  const StatsTable table = one("torch-ops");
  ASSERT_EQ(table.sections.size(), 1u);
  ASSERT_EQ(table.sections[0].rows.size(), 6u);
  const Lines expected{
      "======== Operators:",
      "Name            Pass      Calls      Self  Self(%)     Total       Avg       Min       Max",
      "aten::addmm     forward       2  160.00us   40.00%  160.00us   80.00us   80.00us   80.00us",
      "aten::mm        backward      2  120.00us   30.00%  120.00us   60.00us   50.00us   70.00us",
      "aten::mm        forward       1   40.00us   10.00%   40.00us   40.00us   40.00us   40.00us",
      "AddmmBackward0  backward      1   30.00us    7.50%  150.00us  150.00us  150.00us  150.00us",
      "aten::relu      forward       1   30.00us    7.50%   30.00us   30.00us   30.00us   30.00us",
      "aten::linear    forward       2   20.00us    5.00%  200.00us  100.00us  100.00us  100.00us",
  };
  const Lines text = split(render_table({table}));
  ASSERT_GE(text.size(), expected.size());
  EXPECT_EQ(Lines(text.begin(), text.begin() + expected.size()), expected);
  EXPECT_EQ(value(table, 0, 0, "Name"), "aten::addmm");
  EXPECT_EQ(value(table, 0, 0, "Calls"), "2");
  EXPECT_EQ(value(table, 0, 0, "Self(ns)"), "160000");
  EXPECT_EQ(value(table, 0, 0, "Self(%)"), "40");
  EXPECT_EQ(value(table, 0, 1, "Pass"), "backward");
  EXPECT_EQ(value(table, 0, 1, "Min(ns)"), "50000");
  EXPECT_EQ(value(table, 0, 1, "Max(ns)"), "70000");
  EXPECT_EQ(value(table, 0, 1, "Avg(ns)"), "60000");
  // Without a `self` argument the whole duration is self time; without a
  // `pass` the call is forward.
  EXPECT_EQ(value(table, 0, 4, "Name"), "aten::relu");
  EXPECT_EQ(value(table, 0, 4, "Pass"), "forward");
  EXPECT_EQ(value(table, 0, 4, "Self(ns)"), "30000");
  // Self and total apart for an operator that calls others.
  EXPECT_EQ(value(table, 0, 5, "Self(ns)"), "20000");
  EXPECT_EQ(value(table, 0, 5, "Total(ns)"), "200000");
  EXPECT_EQ(value(table, 0, 0, "Input Shapes"), "no column Input Shapes");
  ASSERT_EQ(table.notes.size(), 1u);

  const Lines csv = split(render_csv({table}));
  ASSERT_EQ(csv.size(), 1u + 6u + 1u);
  EXPECT_EQ(csv[0], "Name,Pass,Calls,Self(ns),Self(%),Total(ns),Avg(ns),Min(ns),Max(ns)");
  EXPECT_EQ(csv[1], "aten::addmm,forward,2,160000,40,160000,80000,80000,80000");
  EXPECT_EQ(csv[4], "AddmmBackward0,backward,1,30000,7.5,150000,150000,150000,150000");
  EXPECT_EQ(csv[7].rfind("# Self: ", 0), 0u) << csv[7];

  const Json json = JsonParser::parse(render_json({table}));
  const auto &rows = json["torch-ops"]["rows"].items;
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[1]["Name"].text, "aten::mm");
  EXPECT_EQ(rows[1]["Pass"].text, "backward");
  EXPECT_EQ(rows[1]["Calls"].number, 2);
  EXPECT_EQ(rows[1]["Self(ns)"].number, 120000);
  EXPECT_EQ(rows[1]["Self(%)"].number, 30);
  EXPECT_EQ(rows[5]["Total(ns)"].number, 200000);
  EXPECT_FALSE(rows[0].has("Input Shapes"));
}

TEST_F(OperatorReport, GroupByShapesSplitsEachNameByItsInputShapes) {
  const StatsTable table = one("torch-ops", by_shapes());
  ASSERT_EQ(table.sections.size(), 1u);
  EXPECT_EQ(table.sections[0].title, "======== Operators by name and input shapes:");
  ASSERT_EQ(table.sections[0].rows.size(), 9u);
  const std::vector<std::array<std::string, 5>> expected{
      // Name, Pass, Calls, Self(ns), Input Shapes
      {"aten::addmm", "forward", "1", "80000", kAddmm2},
      {"aten::addmm", "forward", "1", "80000", kAddmm4},
      {"aten::mm", "backward", "1", "70000", "[[16, 2], [2, 8]]"},
      {"aten::mm", "backward", "1", "50000", "[[2, 16], [16, 8]]"},
      {"aten::mm", "forward", "1", "40000", ""},
      {"AddmmBackward0", "backward", "1", "30000", ""},
      {"aten::relu", "forward", "1", "30000", ""},
      {"aten::linear", "forward", "1", "10000", kLinear2},
      {"aten::linear", "forward", "1", "10000", kLinear4},
  };
  for (size_t row = 0; row < expected.size(); ++row) {
    EXPECT_EQ(value(table, 0, row, "Name"), expected[row][0]) << row;
    EXPECT_EQ(value(table, 0, row, "Pass"), expected[row][1]) << row;
    EXPECT_EQ(value(table, 0, row, "Calls"), expected[row][2]) << row;
    EXPECT_EQ(value(table, 0, row, "Self(ns)"), expected[row][3]) << row;
    EXPECT_EQ(value(table, 0, row, "Input Shapes"), expected[row][4]) << row;
  }
  EXPECT_EQ(value(table, 0, 0, "Self(%)"), "20");
  EXPECT_EQ(value(table, 0, 7, "Total(ns)"), "100000");
  const Lines text = split(render_table({table}));
  EXPECT_EQ(text.at(1), "Name            Pass      Calls     Self  Self(%)     Total       Avg  "
                        "     Min       Max  Input Shapes");
  EXPECT_EQ(text.at(2), "aten::addmm     forward       1  80.00us   20.00%   80.00us   80.00us  "
                        " 80.00us   80.00us  [[16], [2, 8], [8, 16], [], []]");
  EXPECT_EQ(text.at(6), "aten::mm        forward       1  40.00us   10.00%   40.00us   40.00us  "
                        " 40.00us   40.00us  -");

  const Lines csv = split(render_csv({table}));
  EXPECT_EQ(csv.at(0),
            "Name,Pass,Calls,Self(ns),Self(%),Total(ns),Avg(ns),Min(ns),Max(ns),Input Shapes");
  EXPECT_EQ(csv.at(1),
            "aten::addmm,forward,1,80000,20,80000,80000,80000,80000,\"" + kAddmm2 + "\"");
  EXPECT_EQ(csv.at(5), "aten::mm,forward,1,40000,10,40000,40000,40000,40000,");
  const Json json = JsonParser::parse(render_json({table}));
  EXPECT_EQ(json["torch-ops"]["rows"].items.at(3)["Input Shapes"].text, "[[2, 16], [16, 8]]");
}

TEST_F(OperatorReport, EmptyReportSaysSo) {
  testing::TestReport none;
  none.annotation(none.thread(none.process("app", 1), "app", 1), kOrigin, kUs, "forward");
  open(none, 3);
  EXPECT_EQ(render_table({one("torch-ops")}), "======== Operators: none in this report\n");
  EXPECT_EQ(render_table({one("torch-ops", by_shapes())}),
            "======== Operators: none in this report\n");
  EXPECT_EQ(render_csv({one("torch-ops")}),
            "Name,Pass,Calls,Self(ns),Self(%),Total(ns),Avg(ns),Min(ns),Max(ns)\n");
}

// Operators that say the memory they kept: two columns more, summed.
TEST_F(OperatorReport, MemoryColumnsWhereOperatorsSayWhatTheyKept) {
  testing::TestReport r;
  const auto us = [](uint64_t t) { return kOrigin + t * kUs; };
  const uint32_t main = r.thread(r.process("train", 7), "train", 7);
  using Memory = testing::TestReport::OpMemory;
  r.op(main, us(0), 100 * kUs, "aten::linear", "forward", 10 * kUs, "", Memory{1024, -512});
  r.op(main, us(10), 80 * kUs, "aten::addmm", "forward", 80 * kUs, "", Memory{1536, 1536});
  r.op(main, us(200), 100 * kUs, "aten::linear", "forward", 10 * kUs, "", Memory{1024, 0});
  r.op(main, us(400), 30 * kUs, "aten::relu"); // said nothing: counts as nothing kept
  open(r, 3);
  const StatsTable table = one("torch-ops");
  const Lines csv = split(render_csv({table}));
  ASSERT_GE(csv.size(), 4u);
  EXPECT_EQ(csv[0], "Name,Pass,Calls,Self(ns),Self(%),Total(ns),Avg(ns),Min(ns),Max(ns),Mem(B),"
                    "Self Mem(B)");
  EXPECT_EQ(csv[1], "aten::addmm,forward,1,80000,61.54,80000,80000,80000,80000,1536,1536");
  EXPECT_EQ(csv[2], "aten::relu,forward,1,30000,23.08,30000,30000,30000,30000,0,0");
  EXPECT_EQ(csv[3], "aten::linear,forward,2,20000,15.38,200000,100000,100000,100000,2048,-512");
  const Lines text = split(render_table({table}));
  ASSERT_GE(text.size(), 5u);
  EXPECT_NE(text[1].find("     Mem  Self Mem"), std::string::npos) << text[1];
  EXPECT_NE(text[4].find("2.00KiB  -512.00B"), std::string::npos) << text[4];
  ASSERT_EQ(table.notes.size(), 2u);
  EXPECT_EQ(table.notes[1].rfind("Mem: ", 0), 0u);
}

// Whatever the chunking and the threads, the same table.
TEST_F(OperatorReport, SameRowsWhateverTheScan) {
  const std::string expected = render_json(run({"torch-ops"}, by_shapes(), 1));
  open(operator_report(), 1);
  EXPECT_EQ(render_json(run({"torch-ops"}, by_shapes(), 4)), expected);
}

} // namespace
} // namespace prof::stats
