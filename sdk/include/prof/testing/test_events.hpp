// SDK test support: events built field by field, for tests that feed writers, exporters and
// readers by hand. Names and categories are string ids here; the fake export
// host's members of the same names intern text first.
#pragma once

#include <prof/event.h>

#include <cstdint>

namespace prof::testing {

inline prof_event slice(prof_track_id track, uint64_t ts, uint64_t duration, prof_string_id name,
                        prof_string_id category = 0, uint64_t id = 0) {
  prof_event e{};
  e.type = PROF_EVENT_SLICE;
  e.track = track;
  e.ts = ts;
  e.duration = duration;
  e.name = name;
  e.category = category;
  e.id = id;
  return e;
}

inline prof_event instant(prof_track_id track, uint64_t ts, prof_string_id name,
                          prof_string_id category = 0) {
  prof_event e{};
  e.type = PROF_EVENT_INSTANT;
  e.track = track;
  e.ts = ts;
  e.name = name;
  e.category = category;
  return e;
}

inline prof_event counter(prof_track_id track, uint64_t ts, double value) {
  prof_event e{};
  e.type = PROF_EVENT_COUNTER;
  e.track = track;
  e.ts = ts;
  e.value = value;
  return e;
}

inline prof_event sample(prof_track_id track, uint64_t ts, prof_stack_id stack) {
  prof_event e{};
  e.type = PROF_EVENT_SAMPLE;
  e.track = track;
  e.ts = ts;
  e.id = stack;
  return e;
}

inline prof_event flow(prof_track_id track, uint64_t ts, uint64_t flow_id, uint8_t phase) {
  prof_event e{};
  e.type = PROF_EVENT_FLOW;
  e.flags = phase;
  e.track = track;
  e.ts = ts;
  e.id = flow_id;
  return e;
}

} // namespace prof::testing
