// The example exporter's unit tests: prof's fake export host from the SDK
// (prof/testing) drives it, no prof needed.
#include "example_durations.hpp"

#include <prof/testing/fake_export_host.hpp>

#include <gtest/gtest.h>

namespace {

using prof::testing::FakeExportHost;

std::vector<std::string> run(FakeExportHost &host, const std::vector<prof_event> &events) {
  example::DurationsExporter exporter(host.host());
  EXPECT_TRUE(exporter.begin());
  EXPECT_TRUE(exporter.consume(events.data(), events.size()));
  EXPECT_TRUE(exporter.end());
  return host.printed();
}

TEST(ExampleDurations, CountsTheNamedSlicesInAnyCase) {
  FakeExportHost host;
  host.set_option("names", "TICK,beat");
  const prof_track_id track = host.add_track(PROF_TRACK_CUSTOM, "ticks");
  const auto printed =
      run(host, {host.slice(track, "tick", 0, 1000), host.slice(track, "tick", 5, 3000),
                 host.slice(track, "other", 9, 7000)});
  ASSERT_EQ(printed.size(), 2u); // the header and one row
  EXPECT_NE(printed[1].find("tick"), std::string::npos);
  EXPECT_NE(printed[1].find("2"), std::string::npos);
  EXPECT_EQ(printed[1].find("other"), std::string::npos);
}

TEST(ExampleDurations, SaysSoWithoutSlices) {
  FakeExportHost host;
  EXPECT_EQ(run(host, {}), std::vector<std::string>{"example-durations: no slices"});
}

} // namespace
