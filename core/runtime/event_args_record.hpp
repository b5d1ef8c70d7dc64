// How a slice's or instant's typed arguments travel through a ring: packed
// three to a record, in records that directly follow their event. The
// records are prof's own (its rings and its agent's); the drain folds them
// into the catalog's ArgsTable, so sinks and exporters never see one.
//
// An arguments record: type kArgsRecord, flags = arguments in it (1..3),
// kind = their prof_arg_type, 4 bits each (first in the low bits), the keys
// in track, name and category, the values' 64 bits in ts, duration and id.
#pragma once

#include <prof/event.h>
#include <prof/event.hpp>

#include <cstdint>
#include <cstring>

namespace prof::core {

/// The type of an arguments record; outside prof_event_type on purpose.
inline constexpr uint8_t kArgsRecord = 0x80;
inline constexpr uint32_t kArgsPerRecord = 3;
/// Most records one event takes with its arguments.
inline constexpr uint32_t kMaxRecordsPerEvent =
    1 + (PROF_MAX_ARGS + kArgsPerRecord - 1) / kArgsPerRecord;

/// Writes `event` and up to PROF_MAX_ARGS of `args` into `out` (room for
/// kMaxRecordsPerEvent records); returns how many records that is.
inline uint32_t pack_event_args(const prof_event &event, const prof_arg *args, uint32_t count,
                                prof_event *out) {
  if (args == nullptr) count = 0;
  if (count > PROF_MAX_ARGS) count = PROF_MAX_ARGS;
  out[0] = event;
  uint32_t records = 1;
  for (uint32_t first = 0; first < count; first += kArgsPerRecord) {
    prof_event &r = out[records++];
    std::memset(&r, 0, sizeof r);
    r.type = kArgsRecord;
    const uint32_t n = count - first < kArgsPerRecord ? count - first : kArgsPerRecord;
    r.flags = static_cast<uint8_t>(n);
    prof_string_id *keys[3] = {&r.track, &r.name, &r.category};
    uint64_t *values[3] = {&r.ts, &r.duration, &r.id};
    for (uint32_t i = 0; i < n; ++i) {
      const prof_arg &a = args[first + i];
      *keys[i] = a.key;
      std::memcpy(values[i], &a.value, sizeof(uint64_t));
      if (prof::arg_is_id(a.type)) *values[i] &= 0xffffffffu;
      r.kind = static_cast<uint16_t>(r.kind | ((a.type & 0xfu) << (4 * i)));
    }
  }
  return records;
}

/// Reads the arguments of one arguments record into `out` (room for
/// kArgsPerRecord); returns how many.
inline uint32_t unpack_args_record(const prof_event &r, prof_arg *out) {
  const uint32_t n = r.flags < kArgsPerRecord ? r.flags : kArgsPerRecord;
  const prof_string_id keys[3] = {r.track, r.name, r.category};
  const uint64_t values[3] = {r.ts, r.duration, r.id};
  for (uint32_t i = 0; i < n; ++i) {
    out[i].key = keys[i];
    out[i].type = (r.kind >> (4 * i)) & 0xfu;
    std::memcpy(&out[i].value, &values[i], sizeof(uint64_t));
  }
  return n;
}

/// Maps the ids of an arguments record (keys and string values with
/// `strings`, stack values with `stacks`), as a reader of another process's
/// rings must.
template <class Strings, class Stacks>
void map_args_record_ids(prof_event &r, const Strings &strings, const Stacks &stacks) {
  const uint32_t n = r.flags < kArgsPerRecord ? r.flags : kArgsPerRecord;
  prof_string_id *keys[3] = {&r.track, &r.name, &r.category};
  uint64_t *values[3] = {&r.ts, &r.duration, &r.id};
  for (uint32_t i = 0; i < n; ++i) {
    *keys[i] = strings(*keys[i]);
    const uint32_t type = (r.kind >> (4 * i)) & 0xfu;
    if (type == PROF_ARG_STRING) *values[i] = strings(static_cast<prof_string_id>(*values[i]));
    if (type == PROF_ARG_STACK) *values[i] = stacks(static_cast<prof_stack_id>(*values[i]));
  }
}

} // namespace prof::core
