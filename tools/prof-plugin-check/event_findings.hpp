// What the checking hosts found wrong in a source's events, by rule, from
// any thread: the first few messages of each rule and how many there were,
// and how many events of each type arrived.
#pragma once

#include <prof/event.h>

#include <array>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace prof::plugin_check {

/// The events rules, in the order they are reported.
inline constexpr const char *kEventRules[] = {
    "events.declared-track",    "events.strings",    "events.stacks",
    "events.slice-duration",    "events.flows",      "events.counter-track",
    "events.clock-calibration", "events.after-stop", "events.drop-causes"};

class EventFindings {
public:
  /// Records a problem of `rule` (one of kEventRules).
  void add(const std::string &rule, std::string message);
  /// Counts one event of `type` (prof_event_type).
  void count(uint8_t type);

  /// The messages kept for `rule` (at most a few), the first one first.
  std::vector<std::string> problems(const std::string &rule) const;
  /// How many problems `rule` had in all.
  size_t problem_count(const std::string &rule) const;
  /// Events seen, all types together.
  uint64_t events() const;
  /// "12 events: 3 slices, 9 counters".
  std::string events_text() const;

private:
  static constexpr size_t kKept = 3;
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<std::string>> messages_;
  std::map<std::string, size_t> counts_;
  std::array<uint64_t, 6> per_type_{}; ///< by prof_event_type, [0] unused
};

} // namespace prof::plugin_check
