#include "core/capture/sources_switch.hpp"

#include "core/capture/session.hpp"
#include "core/plugin_host/console.hpp"

namespace prof::core {

SourcesSwitch::SourcesSwitch(Transition suspend, Transition resume)
    : suspend_(std::move(suspend)), resume_(std::move(resume)) {}

SourcesSwitch::SourcesSwitch(core::Session &session, core::Console &console)
    : SourcesSwitch(
          [&session, &console] {
            if (session.suspend()) return true;
            console.warning("sources keep running while collection is off: " + session.error());
            return false;
          },
          [&session, &console] {
            if (session.resume()) return true;
            console.warning("sources did not resume: " + session.error());
            return false;
          }) {}

void SourcesSwitch::set(bool needed) {
  std::lock_guard lock(mutex_);
  needed_ = needed;
  apply();
}

void SourcesSwitch::started() {
  std::lock_guard lock(mutex_);
  active_ = true;
  apply();
}

void SourcesSwitch::stopping() {
  std::lock_guard lock(mutex_);
  active_ = false;
}

bool SourcesSwitch::resting() const {
  std::lock_guard lock(mutex_);
  return !running_;
}

void SourcesSwitch::apply() {
  if (!active_ || needed_ == running_) return;
  // A refused transition leaves the sources as they were.
  if (needed_ ? resume_() : suspend_()) running_ = needed_;
}

} // namespace prof::core
