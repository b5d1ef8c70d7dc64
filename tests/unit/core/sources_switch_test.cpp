// The switch that lets a session's sources rest while collection is off:
// it acts only while the session runs, only on changes, and keeps the
// sources' real state when the session refuses.
#include "core/capture/sources_switch.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace prof::core {
namespace {

struct Recorder {
  std::vector<std::string> calls;
  bool refuse = false;
  SourcesSwitch make() {
    return SourcesSwitch(
        [this] {
          calls.push_back("suspend");
          return !refuse;
        },
        [this] {
          calls.push_back("resume");
          return !refuse;
        });
  }
};

TEST(SourcesSwitch, ActsOnlyBetweenStartAndStopping) {
  Recorder r;
  SourcesSwitch sources = r.make();
  sources.set(false); // before the session started: remembered
  EXPECT_TRUE(r.calls.empty());
  sources.started();
  EXPECT_EQ(r.calls, (std::vector<std::string>{"suspend"}));
  EXPECT_TRUE(sources.resting());
  sources.set(false); // no change, no call
  sources.set(true);
  EXPECT_EQ(r.calls, (std::vector<std::string>{"suspend", "resume"}));
  sources.stopping();
  sources.set(false);
  EXPECT_EQ(r.calls.size(), 2u);
  EXPECT_FALSE(sources.resting());
}

TEST(SourcesSwitch, NeededFromTheStartMeansNoCall) {
  Recorder r;
  SourcesSwitch sources = r.make();
  sources.started();
  sources.set(true);
  EXPECT_TRUE(r.calls.empty());
}

TEST(SourcesSwitch, ARefusedSuspendLeavesThemRunning) {
  Recorder r;
  SourcesSwitch sources = r.make();
  sources.started();
  r.refuse = true;
  sources.set(false);
  EXPECT_FALSE(sources.resting());
  r.refuse = false;
  sources.set(true); // running already: nothing to resume
  EXPECT_EQ(r.calls, (std::vector<std::string>{"suspend"}));
}

} // namespace
} // namespace prof::core
