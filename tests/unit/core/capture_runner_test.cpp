// The capture runner's one teardown path: whatever was started is stopped
// once, the front end's before_stop hook first, whether the front end
// stopped it or returned early.
#include "core/capture/capture_runner.hpp"

#include "core/plugin_host/console.hpp"
#include "core/runtime/session_clock.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace prof::core {
namespace {

class CaptureRunnerTest : public ::testing::Test {
protected:
  CaptureRunnerTest() { console_.set_quiet(true); }
  std::unique_ptr<CaptureRunner> started_runner() {
    auto runner = std::make_unique<CaptureRunner>(kBuffers, console_);
    runner->identify({"test", 42, "app --flag", "node-1"});
    runner->before_stop([this] { calls_.push_back("before_stop"); });
    // No report name: the windows feed the exporters only.
    controller_ = &runner->control(
        CapturePlan{}, std::make_unique<WindowReports>("", false, report::Header{}, 42, "node-1"),
        [](int) {});
    EXPECT_EQ(runner->start(), "");
    return runner;
  }

  static constexpr EventBusConfig kBuffers{1 << 16, 1 << 15, 2};
  Console console_;
  CaptureController *controller_ = nullptr;
  std::vector<std::string> calls_;
};

TEST_F(CaptureRunnerTest, AnEarlyReturnStopsWhatWasStartedHookFirst) {
  {
    auto runner = started_runner();
    EXPECT_EQ(runner->session().state(), SessionState::Running);
    EXPECT_EQ(controller_->state(), "running");
  }
  EXPECT_EQ(calls_, std::vector<std::string>{"before_stop"});
}

TEST_F(CaptureRunnerTest, StopAndFinishTearDownOnceAndCloseTheController) {
  auto runner = started_runner();
  runner->stop();
  EXPECT_EQ(runner->session().state(), SessionState::Stopped);
  EXPECT_EQ(controller_->command(control::Command::Status, ""), "error the capture is ending");
  EXPECT_TRUE(runner->finish(0, 0));
  runner.reset();
  EXPECT_EQ(calls_, std::vector<std::string>{"before_stop"}) << "stopped once";
}

TEST_F(CaptureRunnerTest, ARunnerThatNeverStartedStillEndsTheFrontEndsThreads) {
  {
    CaptureRunner runner(kBuffers, console_);
    runner.before_stop([this] { calls_.push_back("before_stop"); });
  }
  EXPECT_EQ(calls_, std::vector<std::string>{"before_stop"});
}

TEST_F(CaptureRunnerTest, IdentifyNamesTheSessionAndAnchorsItsClock) {
  CaptureRunner runner(kBuffers, console_);
  const uint64_t before = realtime_now_ns();
  runner.identify({"train-1", 4242, "python3 train.py", "node-7"});
  const prof_session_info &info = runner.context().session;
  EXPECT_STREQ(info.session_name, "train-1");
  EXPECT_EQ(info.target_pid, 4242);
  EXPECT_STREQ(info.command, "python3 train.py");
  EXPECT_STREQ(info.hostname, "node-7");
  EXPECT_GE(info.realtime_anchor_ns, before);
  EXPECT_LE(info.realtime_anchor_ns, realtime_now_ns());
  EXPECT_GT(info.monotonic_anchor_ns, 0u);
  EXPECT_EQ(runner.session().name(), "train-1");
}

} // namespace
} // namespace prof::core
