// The capture controller lets prof's own sources rest while no window needs
// their events, and wakes them before a window opens; with a capture range
// they run throughout, since the application opens its windows itself.
#include "core/capture/capture_controller.hpp"

#include "core/plugin_host/console.hpp"
#include "core/runtime/session_clock.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace prof::core {
namespace {

using namespace std::chrono_literals;

class NullOutput final : public core::WindowOutput {
public:
  core::EventSink &sink() override { return sink_; }
  std::string finish(const core::Catalog &, const core::CaptureEnd &) override { return ""; }
  void discard() override {}
  std::string description() const override { return ""; }

private:
  struct Sink final : core::EventSink {
    void consume(const prof_event *, size_t) override {}
  } sink_;
};

/// A controller whose drain thread runs every millisecond, and what it told
/// the sources, in order.
class ControllerRun {
public:
  explicit ControllerRun(const CapturePlan &plan)
      : controller_(
            plan, catalog_, {},
            [](const core::WindowFacts &, std::string *) { return std::make_unique<NullOutput>(); },
            console_, [](int) {}, [] { return core::CaptureEnd{}; }) {
    console_.set_quiet(true);
    controller_.on_sources_needed([this](bool needed) {
      std::lock_guard lock(mutex_);
      told_.push_back(needed);
      windows_when_told_.push_back(controller_.windows_started());
    });
    controller_.launched(core::session_now_ns());
    drain_ = std::thread([this] {
      while (!done_.load()) {
        controller_.before_drain();
        std::this_thread::sleep_for(1ms);
      }
    });
  }
  ~ControllerRun() {
    done_.store(true);
    drain_.join();
    controller_.close();
  }
  CaptureController &controller() { return controller_; }
  std::vector<bool> told() const {
    std::lock_guard lock(mutex_);
    return told_;
  }
  std::vector<uint32_t> windows_when_told() const {
    std::lock_guard lock(mutex_);
    return windows_when_told_;
  }
  /// Waits until the sources were told `count` times (or 10 s passed).
  bool wait_for_calls(size_t count) const {
    for (int i = 0; i < 10000 && told().size() < count; ++i)
      std::this_thread::sleep_for(1ms);
    return told().size() >= count;
  }

private:
  core::Catalog catalog_;
  core::Console console_;
  CaptureController controller_;
  mutable std::mutex mutex_;
  std::vector<bool> told_;
  std::vector<uint32_t> windows_when_told_;
  std::atomic<bool> done_{false};
  std::thread drain_;
};

TEST(CaptureControllerSources, RestWhileCollectionIsOffAndWakeForAWindow) {
  CapturePlan plan;
  plan.from_start = false;
  ControllerRun run(plan);
  ASSERT_TRUE(run.wait_for_calls(1));
  EXPECT_EQ(run.told(), (std::vector<bool>{false}));

  ASSERT_EQ(run.controller().command(control::Command::Start, "").rfind("ok", 0), 0u);
  ASSERT_TRUE(run.wait_for_calls(2));
  EXPECT_EQ(run.told(), (std::vector<bool>{false, true}));

  // After stop the window waits 300 ms for late events; the sources with it.
  const auto stopped = std::chrono::steady_clock::now();
  ASSERT_EQ(run.controller().command(control::Command::Stop, "").rfind("ok", 0), 0u);
  ASSERT_TRUE(run.wait_for_calls(3));
  EXPECT_GE(std::chrono::steady_clock::now() - stopped, 300ms);
  EXPECT_EQ(run.told(), (std::vector<bool>{false, true, false}));
}

TEST(CaptureControllerSources, SuspendKeepsThemRunning) {
  CapturePlan plan;
  plan.from_start = false;
  ControllerRun run(plan);
  ASSERT_TRUE(run.wait_for_calls(1));
  ASSERT_EQ(run.controller().command(control::Command::Start, "").rfind("ok", 0), 0u);
  ASSERT_TRUE(run.wait_for_calls(2));
  // A suspended window still needs the events around its cut.
  ASSERT_EQ(run.controller().command(control::Command::Suspend, "").rfind("ok", 0), 0u);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(run.told(), (std::vector<bool>{false, true}));
}

TEST(CaptureControllerSources, WakeBeforeADelayedWindowOpens) {
  CapturePlan plan;
  plan.delay = 600ms;
  ControllerRun run(plan);
  ASSERT_TRUE(run.wait_for_calls(2));
  EXPECT_EQ(run.told(), (std::vector<bool>{false, true}));
  // Woken ahead of the window, unless this machine left the drain thread
  // asleep for the whole 200 ms lead.
  EXPECT_EQ(run.windows_when_told().at(1), 0u);
}

TEST(CaptureControllerSources, AWindowFromLaunchAndCaptureRangesNeverRest) {
  ControllerRun from_launch(CapturePlan{});
  CapturePlan ranges;
  ranges.range = CaptureRange::ProfilerApi;
  ControllerRun ranged(ranges);
  std::this_thread::sleep_for(50ms);
  EXPECT_TRUE(from_launch.told().empty());
  EXPECT_TRUE(ranged.told().empty());
}

} // namespace
} // namespace prof::core
