#include "core/capture/step_alignment.hpp"

#include <algorithm>

namespace prof::core {

StepAlignment::StepAlignment(uint64_t at_step, uint64_t count, size_t expected)
    : first_(at_step), count_(std::max<uint64_t>(count, 1)), expected_(expected) {}

bool StepAlignment::first_heard(int pid, uint64_t steps) {
  const bool fresh = ended_.emplace(pid, steps).second;
  // Joined inside or past step S: step S began before prof could see it.
  if (fresh && first_ != 0 && steps >= first_ - 1) late_.emplace(pid, steps);
  return fresh;
}

void StepAlignment::position(int pid, uint64_t steps) {
  if (!first_heard(pid, steps)) ended_[pid] = std::max(ended_[pid], steps);
}

StepAlignment::Action StepAlignment::boundary(int pid, uint64_t number, uint64_t ts) {
  // A boundary heard first (no position: an older agent) counts from the step before it.
  first_heard(pid, number - 1);
  ended_[pid] = std::max(ended_[pid], number);
  if (first_ == 0 || closed_ || late_.contains(pid)) return Action::None;
  Action action = Action::None;
  // >= : a boundary lost on the way (a full request queue) still counts.
  if (number >= first_ - 1 && number < last_step() && spans_.emplace(pid, Span{ts}).second &&
      !open_) {
    open_ = true;
    action = Action::Open;
  }
  if (number >= last_step()) {
    if (const auto span = spans_.find(pid); span != spans_.end()) {
      if (finished_.insert(pid).second) span->second.end = ts;
    } else {
      late_.emplace(pid, number); // never seen beginning step S
    }
  }
  const size_t joined_in_time = expected_ > late_.size() ? expected_ - late_.size() : 0;
  if (open_ && finished_.size() >= std::max(spans_.size(), joined_in_time)) {
    closed_ = true;
    action = Action::Close;
  }
  return action;
}

bool StepAlignment::pick(bool now_or_never) {
  if (first_ != 0) return true;
  if (!now_or_never && ended_.size() < expected_) return false;
  uint64_t furthest = 0;
  for (const auto &[pid, steps] : ended_)
    furthest = std::max(furthest, steps);
  // The furthest process is in step furthest+1: the next to begin everywhere.
  first_ = furthest + 2;
  return true;
}

std::string StepAlignment::positions_text() const {
  if (ended_.empty()) return "no process has marked a step yet";
  uint64_t low = UINT64_MAX, high = 0;
  for (const auto &[pid, steps] : ended_) {
    low = std::min(low, steps + 1);
    high = std::max(high, steps + 1);
  }
  return std::to_string(ended_.size()) +
         (ended_.size() == 1 ? " process in step " : " processes in steps ") + std::to_string(low) +
         (low == high ? "" : " to " + std::to_string(high));
}

} // namespace prof::core
