// prof::DeclaredOptions: the value a host hands, else the option table's
// default, read as text, integer, number or flag.
#include <prof/declared_options.hpp>
#include <prof/plugin.hpp>
#include <prof/testing/fake_source_host.hpp>

#include <gtest/gtest.h>

namespace {

constexpr prof_option_desc kTable[] = {
    {"frequency", PROF_OPTION_INT, "100", 1, 1000, nullptr, "Hz"},
    {"ratio", PROF_OPTION_DOUBLE, "2.5", 0, -1, nullptr, "a ratio"},
    {"enabled", PROF_OPTION_BOOL, "true", 0, -1, nullptr, "on or off"},
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr, "no default"},
};

TEST(DeclaredOptions, AnOptionTheHostHandsNoValueForIsTheTablesDefault) {
  prof::testing::FakeSourceHost fake; // hands only what is set on it
  const prof::Host host(fake.api(), &fake);
  const prof::DeclaredOptions options(host, kTable);
  EXPECT_FALSE(options.given("frequency"));
  EXPECT_EQ(options.integer("frequency"), 100);
  EXPECT_DOUBLE_EQ(options.real("ratio"), 2.5);
  EXPECT_TRUE(options.flag("enabled"));
  EXPECT_EQ(options.text("path"), "") << "declared without default";
  EXPECT_EQ(options.default_of("frequency"), "100");
  EXPECT_EQ(options.default_of("frequncy"), "") << "not declared";
}

TEST(DeclaredOptions, AValueTheHostHandsWins) {
  prof::testing::FakeSourceHost fake;
  fake.set_option("frequency", "250");
  fake.set_option("enabled", "off");
  fake.set_option("path", "out.txt");
  const prof::Host host(fake.api(), &fake);
  const prof::DeclaredOptions options(host, kTable);
  EXPECT_EQ(options.integer("frequency"), 250);
  EXPECT_EQ(options.given("frequency"), "250");
  EXPECT_FALSE(options.flag("enabled"));
  EXPECT_EQ(options.text("path"), "out.txt");
  EXPECT_EQ(options.default_of("frequency"), "100") << "the table's, whatever was given";
  for (const char *yes : {"true", "on", "yes", "1"}) {
    fake.set_option("enabled", yes);
    EXPECT_TRUE(options.flag("enabled")) << yes;
  }
}

} // namespace
