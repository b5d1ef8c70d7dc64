// Which prof_event fields each event type carries in an EVENTS payload.
#pragma once

#include <prof/event.h>

#include <array>
#include <cstdint>

namespace prof::report {

enum EventField : uint8_t {
  kHasDuration = 1,
  kHasId = 2,
  kHasFlags = 4,
  kHasValue = 8,
  kHasCounterId = 16,
  kHasKind = 32, ///< the well-known category (plugin ABI 1.5)
  kHasArgs = 64  ///< the argument set id, in value's bits (plugin ABI 1.5)
};

/// The fields of each type; unknown types carry every field but the counter
/// id and the argument set (value holds its bits) so that nothing is lost.
inline constexpr std::array<uint8_t, 256> kEventFields = [] {
  std::array<uint8_t, 256> t{};
  for (auto &fields : t)
    fields = kHasDuration | kHasId | kHasFlags | kHasValue | kHasKind;
  t[PROF_EVENT_SLICE] = kHasDuration | kHasId | kHasKind | kHasArgs;
  t[PROF_EVENT_INSTANT] = kHasKind | kHasArgs;
  t[PROF_EVENT_COUNTER] = kHasValue | kHasCounterId;
  t[PROF_EVENT_SAMPLE] = kHasId;
  t[PROF_EVENT_FLOW] = kHasId | kHasFlags;
  return t;
}();

} // namespace prof::report
