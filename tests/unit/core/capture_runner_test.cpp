// The capture runner's one teardown path: whatever was started is stopped
// once, the front end's before_stop hook first, whether the front end
// stopped it or returned early.
#include "core/capture/capture_runner.hpp"

#include "core/console.hpp"
#include "core/session_clock.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace prof::core {
namespace {

class NullOutput final : public WindowOutput {
public:
  EventSink &sink() override { return sink_; }
  std::string finish(const Catalog &, const CaptureEnd &) override { return ""; }
  void discard() override {}
  std::string description() const override { return ""; }

private:
  struct Sink final : EventSink {
    void consume(const prof_event *, size_t) override {}
  } sink_;
};

class CaptureRunnerTest : public ::testing::Test {
protected:
  CaptureRunnerTest() { console_.set_quiet(true); }
  std::unique_ptr<CaptureRunner> started_runner() {
    auto runner = std::make_unique<CaptureRunner>(capture_, "test");
    runner->before_stop([this] { calls_.push_back("before_stop"); });
    controller_ = &runner->control(
        CapturePlan{},
        [](const WindowFacts &, std::string *) { return std::make_unique<NullOutput>(); },
        [](int) {});
    EXPECT_EQ(runner->start(), "");
    return runner;
  }

  Catalog catalog_;
  EventBus bus_{EventBusConfig{1 << 16, 1 << 15, 2}};
  Console console_;
  CaptureContext capture_{catalog_, bus_, console_,
                          prof_session_info{sizeof(prof_session_info), "test", 0, "", ""}};
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
    CaptureRunner runner(capture_, "test");
    runner.before_stop([this] { calls_.push_back("before_stop"); });
  }
  EXPECT_EQ(calls_, std::vector<std::string>{"before_stop"});
}

} // namespace
} // namespace prof::core
