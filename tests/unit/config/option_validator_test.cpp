#include "core/config/option_validator.hpp"

#include "tests/support/test_plugins.hpp"

#include <gtest/gtest.h>

namespace prof::config {
namespace {

using testing::kCpuUtilOptions;
using testing::kSummaryOptions;
using Pairs = OptionValues;

const prof_option_desc kMixedOptions[] = {
    {"ratio", PROF_OPTION_DOUBLE, "0.5", 0, 1, nullptr, "a fraction"},
    {"label", PROF_OPTION_STRING, nullptr, 0, -1, nullptr, "free text"},
    {"count", PROF_OPTION_INT, nullptr, 1, 0, nullptr, "any integer (no range)"},
};

TEST(OptionValidator, FillsDefaultsInTableOrder) {
  OptionValidator validator("cpu-util", kCpuUtilOptions, 3);
  ValidatedOptions result = validator.validate({{"memory", "off"}});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.values, (Pairs{{"memory", "false"}, {"frequency", "100"}, {"cpu", "true"}}));
  EXPECT_EQ(validator.validate({{"memory", "off"}}, false).values, (Pairs{{"memory", "false"}}));
}

TEST(OptionValidator, UnknownKey) {
  OptionValidator validator("cpu-util", kCpuUtilOptions, 3);
  ValidatedOptions result = validator.validate({{"freq", "10"}});
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0],
            "plugin 'cpu-util' has no option 'freq' (options: frequency, cpu, memory)");
  EXPECT_EQ(OptionValidator("summary", nullptr, 0).unknown_option_message("x"),
            "plugin 'summary' has no option 'x' (it takes no options)");
}

TEST(OptionValidator, BoolWords) {
  OptionValidator validator("cpu-util", kCpuUtilOptions, 3);
  for (auto word : {"true", "on", "yes", "1", "TRUE", "On"})
    EXPECT_EQ(OptionValidator::check_value(kCpuUtilOptions[1], word).value, "true") << word;
  for (auto word : {"false", "off", "no", "0", "No"})
    EXPECT_EQ(OptionValidator::check_value(kCpuUtilOptions[1], word).value, "false") << word;
  ValidatedOptions result = validator.validate({{"cpu", "maybe"}});
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0], "option 'cpu' of plugin 'cpu-util': 'maybe' is not a boolean "
                              "(true/false, on/off, yes/no, 1/0)");
}

TEST(OptionValidator, Integers) {
  OptionValidator validator("cpu-util", kCpuUtilOptions, 3);
  EXPECT_EQ(OptionValidator::check_value(kCpuUtilOptions[0], "050").value, "50");
  EXPECT_EQ(OptionValidator::check_value(kCpuUtilOptions[0], "+7").value, "7");
  EXPECT_EQ(OptionValidator::check_value(kCpuUtilOptions[0], "1000").value, "1000");
  ValidatedOptions result =
      validator.validate({{"frequency", "5000"}, {"cpu", "yes"}, {"memory", "12x"}});
  ASSERT_EQ(result.errors.size(), 2u);
  EXPECT_EQ(result.errors[0],
            "option 'frequency' of plugin 'cpu-util': 5000 is out of range 1..1000");
  EXPECT_EQ(result.errors[1], "option 'memory' of plugin 'cpu-util': '12x' is not a boolean "
                              "(true/false, on/off, yes/no, 1/0)");
  EXPECT_EQ(OptionValidator::check_value(kCpuUtilOptions[0], "0").error,
            "0 is out of range 1..1000");
  EXPECT_EQ(OptionValidator::check_value(kCpuUtilOptions[0], "1.5").error,
            "'1.5' is not an integer");
  EXPECT_EQ(OptionValidator::check_value(kCpuUtilOptions[0], "").error, "'' is not an integer");
  EXPECT_EQ(OptionValidator::check_value(kMixedOptions[2], "-123456").value, "-123456");
}

TEST(OptionValidator, Doubles) {
  EXPECT_EQ(OptionValidator::check_value(kMixedOptions[0], "0.25").value, "0.25");
  EXPECT_EQ(OptionValidator::check_value(kMixedOptions[0], "1").value, "1");
  EXPECT_EQ(OptionValidator::check_value(kMixedOptions[0], "1.5").error,
            "1.5 is out of range 0..1");
  EXPECT_EQ(OptionValidator::check_value(kMixedOptions[0], "half").error, "'half' is not a number");
  EXPECT_EQ(OptionValidator::check_value(kMixedOptions[0], "nan").error, "'nan' is not a number");
}

TEST(OptionValidator, EnumsAndStrings) {
  OptionValidator validator("summary", kSummaryOptions, 1);
  EXPECT_EQ(validator.validate({{"mode", "Per-GCU"}}).values, (Pairs{{"mode", "per-gcu"}}));
  ValidatedOptions result = validator.validate({{"mode", "total"}});
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0],
            "option 'mode' of plugin 'summary': 'total' is not one of summary, gcu, per-gcu, api");
  EXPECT_EQ(OptionValidator::check_value(kMixedOptions[1], " any text ").value, " any text ");
}

TEST(OptionValidator, KeyGivenTwice) {
  OptionValidator validator("cpu-util", kCpuUtilOptions, 3);
  ValidatedOptions result = validator.validate({{"cpu", "on"}, {"cpu", "off"}});
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0], "option 'cpu' of plugin 'cpu-util': given more than once");
}

TEST(OptionValidator, NoDefaultMeansNotFilled) {
  OptionValidator validator("mixed", kMixedOptions, 3);
  EXPECT_EQ(validator.validate({}).values, (Pairs{{"ratio", "0.5"}}));
  EXPECT_EQ(validator.find("label"), &kMixedOptions[1]);
  EXPECT_EQ(validator.find("nope"), nullptr);
}

TEST(PluginCatalog, FromDescriptors) {
  PluginCatalog catalog = testing::shipped_catalog();
  ASSERT_TRUE(catalog.options_of("cpu-util").has_value());
  EXPECT_EQ(catalog.options_of("cpu-util")->size(), 3u);
  EXPECT_FALSE(catalog.options_of("gcu").has_value());
  EXPECT_EQ(catalog.installed(), (std::vector<std::string>{"trace", "cpu-util", "summary"}));
}

} // namespace
} // namespace prof::config
