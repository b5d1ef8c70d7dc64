#include "tools/prof/cli/plugin_spec.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <gtest/gtest.h>

namespace prof::cli {
namespace {

std::string error_of(std::string_view text) {
  try {
    parse_plugin_spec(text);
  } catch (const UsageError &error) {
    return error.what();
  }
  return "no error";
}

TEST(PluginSpec, NameAndOptions) {
  PluginSpec spec = parse_plugin_spec("  cpu-util   frequency=50  memory=off ");
  EXPECT_EQ(spec.name, "cpu-util");
  EXPECT_FALSE(spec.help);
  EXPECT_EQ(spec.options, (std::vector<std::pair<std::string, std::string>>{{"frequency", "50"},
                                                                            {"memory", "off"}}));
}

TEST(PluginSpec, ValueMayHoldEqualsOrBeEmpty) {
  PluginSpec spec = parse_plugin_spec("csv path=a=b.csv note=");
  EXPECT_EQ(spec.options[0].second, "a=b.csv");
  EXPECT_EQ(spec.options[1].second, "");
}

TEST(PluginSpec, Help) {
  PluginSpec spec = parse_plugin_spec("cpu-util help");
  EXPECT_EQ(spec.name, "cpu-util");
  EXPECT_TRUE(spec.help);
  EXPECT_TRUE(spec.options.empty());
}

TEST(PluginSpec, BadSpecs) {
  EXPECT_EQ(error_of(""), "prof: --plugin needs a plugin name, e.g. --plugin \"cpu-util\"");
  EXPECT_EQ(error_of("   "), "prof: --plugin needs a plugin name, e.g. --plugin \"cpu-util\"");
  EXPECT_EQ(error_of("cpu/util"),
            "prof: --plugin \"cpu/util\": 'cpu/util' is not a plugin name (letters, digits, "
            "'-', '_', '.')");
  EXPECT_EQ(error_of("cpu-util freq"), "prof: --plugin \"cpu-util freq\": 'freq' is not key=value");
  EXPECT_EQ(error_of("cpu-util =5"),
            "prof: --plugin \"cpu-util =5\": '=5' has no valid key before '='");
  EXPECT_EQ(error_of("cpu-util a=1 a=2"),
            "prof: --plugin \"cpu-util a=1 a=2\": 'a' is given more than once");
  EXPECT_EQ(error_of("cpu-util help a=1"),
            "prof: --plugin \"cpu-util help a=1\": 'help' takes no other arguments");
}

TEST(PluginSpec, HelpAfterAnyName) { EXPECT_EQ(error_of("x help"), "no error"); }

} // namespace
} // namespace prof::cli
