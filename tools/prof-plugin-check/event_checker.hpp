// The events rules applied to each event a source emits, against what it
// declared in its catalog: a declared track (never the root), interned
// strings and stacks, non-negative slice durations, counters on counter
// tracks, a calibrated clock domain, both ends of every flow, and nothing
// after stop() returned (flush() may still emit).
#pragma once

#include "tools/prof-plugin-check/event_findings.hpp"

#include "core/catalog/catalog.hpp"

#include <prof/plugin.h>

#include <mutex>
#include <string_view>
#include <unordered_map>

namespace prof::plugin_check {

class EventChecker {
public:
  EventChecker(const core::Catalog &catalog, EventFindings &findings)
      : catalog_(catalog), findings_(findings) {}

  /// Checks one event; `after_stop` when the source was stopped (and not
  /// flushing) as it was emitted.
  void event(const prof_event &e, bool after_stop);
  /// Checks the keys and string values of one arguments record (core's
  /// packing, event_args_record.hpp) that followed an event.
  void args_record(const prof_event &record);
  /// Checks text handed to intern_string.
  void string(const char *text, size_t length);
  /// Records a track declaration the host refused, with its reason.
  void track_refused(const std::string &reason);
  /// Checks a count of lost records: only device-buffer and kernel losses
  /// are a plugin's to count (the host counts the others).
  void dropped(prof_drop_cause cause);
  /// Checks frames handed to intern_stack.
  void stack(const prof_string_id *frames, uint32_t count);
  /// Reports the flows that lack an end; call once the source is destroyed.
  void finish();

private:
  std::string where(const prof_event &e) const;
  void check_clock(const prof_event &e, const core::TrackEntry &track);

  const core::Catalog &catalog_;
  EventFindings &findings_;
  std::mutex mutex_;
  /// Flow id -> phases seen (1 << prof_flow_phase).
  std::unordered_map<uint64_t, unsigned> flows_;
};

/// Whether `text` is well-formed UTF-8.
bool is_utf8(std::string_view text);

} // namespace prof::plugin_check
