// Lets a session's sources rest while no collection window needs their
// events: CPU sampling and counter polling stop costing the application
// anything while collection is off. The controller decides on the drain
// thread; the session starts and stops on the main thread, so the switch
// acts only between started() and stopping(), under one lock.
#pragma once

#include <functional>
#include <mutex>

namespace prof::core {

class Console;
class Session;

class SourcesSwitch {
public:
  /// Each returns false (after saying why) when the session refused.
  using Transition = std::function<bool()>;
  SourcesSwitch(Transition suspend, Transition resume);
  /// Suspends and resumes `session`, and says on `console` when it refuses.
  SourcesSwitch(core::Session &session, core::Console &console);

  /// From any thread: whether the sources are needed now.
  void set(bool needed);
  /// The session started: from now on the switch acts, first on what was asked before.
  void started();
  /// The session is about to stop: the switch does nothing more.
  void stopping();
  /// Whether the sources rest now.
  bool resting() const;

private:
  void apply();

  Transition suspend_, resume_;
  mutable std::mutex mutex_;
  bool active_ = false;
  bool needed_ = true;
  bool running_ = true;
};

} // namespace prof::core
