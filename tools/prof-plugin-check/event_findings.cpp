#include "tools/prof-plugin-check/event_findings.hpp"

namespace prof::plugin_check {

void EventFindings::add(const std::string &rule, std::string message) {
  std::lock_guard lock(mutex_);
  ++counts_[rule];
  auto &kept = messages_[rule];
  if (kept.size() < kKept) kept.push_back(std::move(message));
}

void EventFindings::count(uint8_t type) {
  std::lock_guard lock(mutex_);
  if (type < per_type_.size()) ++per_type_[type];
}

std::vector<std::string> EventFindings::problems(const std::string &rule) const {
  std::lock_guard lock(mutex_);
  auto found = messages_.find(rule);
  if (found == messages_.end()) return {};
  std::vector<std::string> list = found->second;
  // first_of() says "and N more" from the list's size: stand in for the rest.
  list.resize(counts_.at(rule), std::string());
  return list;
}

size_t EventFindings::problem_count(const std::string &rule) const {
  std::lock_guard lock(mutex_);
  auto found = counts_.find(rule);
  return found == counts_.end() ? 0 : found->second;
}

uint64_t EventFindings::events() const {
  std::lock_guard lock(mutex_);
  uint64_t sum = 0;
  for (uint64_t n : per_type_)
    sum += n;
  return sum;
}

std::string EventFindings::events_text() const {
  static const char *const names[] = {"", "slices", "instants", "counters", "samples", "flows"};
  std::lock_guard lock(mutex_);
  uint64_t sum = 0;
  std::string parts;
  for (size_t t = 1; t < per_type_.size(); ++t) {
    sum += per_type_[t];
    if (per_type_[t] == 0) continue;
    parts += (parts.empty() ? "" : ", ") + std::to_string(per_type_[t]) + " " + names[t];
  }
  return std::to_string(sum) + " events" + (parts.empty() ? "" : ": " + parts);
}

} // namespace prof::plugin_check
