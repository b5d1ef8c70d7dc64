// The console formatting shared by the summary and trace exporters, and the
// summary's counter value formatting and natural order.
#include <prof/stats/natural_order.hpp>
#include <prof/stats/text_table.hpp>
#include <prof/stats/time_format.hpp>
#include <prof/stats/value_format.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

namespace prof {
namespace {

using stats::format_duration;

TEST(TimeFormatTest, PrintsTwoDecimalsInTheLargestUnitBelowAThousand) {
  EXPECT_EQ(format_duration(0), "0.00ns");
  EXPECT_EQ(format_duration(1), "1.00ns");
  EXPECT_EQ(format_duration(999), "999.00ns");
  EXPECT_EQ(format_duration(1000), "1.00us");
  EXPECT_EQ(format_duration(15620), "15.62us");
  EXPECT_EQ(format_duration(364540), "364.54us");
  EXPECT_EQ(format_duration(514880000), "514.88ms");
  EXPECT_EQ(format_duration(1200000000), "1.20s");
  EXPECT_EQ(format_duration(3600000000000ull), "3600.00s");
}

TEST(TimeFormatTest, RoundsBeforeChoosingTheUnit) {
  EXPECT_EQ(format_duration(999999), "1.00ms");
  EXPECT_EQ(format_duration(999994), "999.99us");
  EXPECT_EQ(format_duration(999995), "1.00ms");
  EXPECT_EQ(format_duration(999999999), "1.00s");
  EXPECT_EQ(format_duration(15625), "15.63us"); // half rounds up
  EXPECT_EQ(format_duration(15624), "15.62us");
}

TEST(TimeFormatTest, LargestValueDoesNotOverflow) {
  EXPECT_EQ(format_duration(UINT64_MAX), "18446744073.71s");
}

TEST(ValueFormatTest, FormatsByUnit) {
  using stats::format_counter_value;
  EXPECT_EQ(format_counter_value(12.345, "%"), "12.35%");
  EXPECT_EQ(format_counter_value(0, "%"), "0.00%");
  EXPECT_EQ(format_counter_value(0, "bytes"), "0.00B");
  EXPECT_EQ(format_counter_value(1023, "bytes"), "1023.00B");
  EXPECT_EQ(format_counter_value(1536, "bytes"), "1.50KiB");
  EXPECT_EQ(format_counter_value(1048575.999, "bytes"), "1.00MiB");
  EXPECT_EQ(format_counter_value(3.0 * 1024 * 1024 * 1024, "bytes"), "3.00GiB");
  EXPECT_EQ(format_counter_value(42, "packets"), "42");
  EXPECT_EQ(format_counter_value(2.5, ""), "2.50");
}

TEST(NaturalOrderTest, ComparesDigitRunsAsNumbers) {
  std::vector<std::string> names{"cpu10 utilization", "cpu2 utilization", "CPU utilization (total)",
                                 "cpu1 utilization",  "Process tree RSS", "cpu0 utilization"};
  std::sort(names.begin(), names.end(), stats::natural_less);
  EXPECT_EQ(names, (std::vector<std::string>{"CPU utilization (total)", "Process tree RSS",
                                             "cpu0 utilization", "cpu1 utilization",
                                             "cpu2 utilization", "cpu10 utilization"}));
  EXPECT_TRUE(stats::natural_less("a", "a1"));
  EXPECT_FALSE(stats::natural_less("a1", "a1"));
  EXPECT_TRUE(stats::natural_less("x9y", "x010y"));
}

TEST(TextTableTest, AlignsColumnsAndLeavesNoTrailingSpace) {
  stats::TextTable table(
      {{"Count", stats::Align::Right}, {"Name", stats::Align::Left}, {"Note", stats::Align::Left}});
  table.fit_row({"1234567", "a", "x"});
  EXPECT_EQ(table.header(), "  Count  Name  Note");
  EXPECT_EQ(table.row({"1", "abc", "y"}), "      1  abc   y");
  EXPECT_EQ(table.row({"1", "abc", ""}), "      1  abc");
}

} // namespace
} // namespace prof
