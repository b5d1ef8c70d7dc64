// The emit functions of prof_host_api, written once for the hosts that pass
// records on: prof's own (SourceInstance, rings in prof's memory), the
// agent's (rings shared with prof) and the plugin checker's. A host derives
// from HostEmitters<itself> and says where records go:
//   static void emit(void *host, const prof_event &event);
//   static void emit_group(void *host, const prof_event *records, uint32_t count);
// then builds its table with prof::host_api_table<Host>(). Both never block,
// allocate or lock.
#pragma once

#include "core/runtime/event_args_record.hpp"

#include <prof/plugin.h>

namespace prof::core {

template <class Host> struct HostEmitters {
  static prof_event event(prof_event_type type, prof_track_id track, uint64_t ts) {
    prof_event e;
    e.type = static_cast<uint8_t>(type);
    e.flags = 0;
    e.kind = 0;
    e.track = track;
    e.name = 0;
    e.category = 0;
    e.ts = ts;
    e.duration = 0;
    e.id = 0;
    e.args = 0;
    return e;
  }
  static void emit_slice(void *host, prof_track_id track, uint64_t begin, uint64_t duration,
                         prof_string_id name, prof_string_id category, uint64_t correlation) {
    prof_event e = event(PROF_EVENT_SLICE, track, begin);
    e.name = name;
    e.category = category;
    e.duration = duration;
    e.id = correlation;
    Host::emit(host, e);
  }
  static void emit_instant(void *host, prof_track_id track, uint64_t ts, prof_string_id name,
                           prof_string_id category) {
    prof_event e = event(PROF_EVENT_INSTANT, track, ts);
    e.name = name;
    e.category = category;
    Host::emit(host, e);
  }
  static void emit_counter(void *host, prof_track_id track, uint64_t ts, double value) {
    emit_counter_for(host, track, ts, value, 0);
  }
  static void emit_counter_for(void *host, prof_track_id track, uint64_t ts, double value,
                               uint64_t correlation) {
    prof_event e = event(PROF_EVENT_COUNTER, track, ts);
    e.id = correlation;
    e.value = value;
    Host::emit(host, e);
  }
  static void emit_sample(void *host, prof_track_id track, uint64_t ts, prof_stack_id stack) {
    emit_stack(host, track, ts, stack, 0);
  }
  static void emit_stack(void *host, prof_track_id track, uint64_t ts, prof_stack_id stack,
                         prof_string_id category) {
    prof_event e = event(PROF_EVENT_SAMPLE, track, ts);
    e.category = category;
    e.id = stack;
    Host::emit(host, e);
  }
  static void emit_flow(void *host, prof_track_id track, uint64_t ts, uint64_t flow_id,
                        prof_flow_phase phase) {
    prof_event e = event(PROF_EVENT_FLOW, track, ts);
    e.flags = static_cast<uint8_t>(phase);
    e.id = flow_id;
    Host::emit(host, e);
  }
  static void emit_slice_args(void *host, prof_track_id track, uint64_t begin, uint64_t duration,
                              prof_string_id name, prof_string_id category, uint64_t correlation,
                              uint16_t kind, const prof_arg *args, uint32_t arg_count) {
    prof_event e = event(PROF_EVENT_SLICE, track, begin);
    e.kind = kind;
    e.name = name;
    e.category = category;
    e.duration = duration;
    e.id = correlation;
    emit_with_args(host, e, args, arg_count);
  }
  static void emit_instant_args(void *host, prof_track_id track, uint64_t ts, prof_string_id name,
                                prof_string_id category, uint16_t kind, const prof_arg *args,
                                uint32_t arg_count) {
    prof_event e = event(PROF_EVENT_INSTANT, track, ts);
    e.kind = kind;
    e.name = name;
    e.category = category;
    emit_with_args(host, e, args, arg_count);
  }
  static void emit_with_args(void *host, const prof_event &e, const prof_arg *args,
                             uint32_t arg_count) {
    if (args == nullptr || arg_count == 0) {
      Host::emit(host, e);
      return;
    }
    prof_event records[kMaxRecordsPerEvent];
    Host::emit_group(host, records, pack_event_args(e, args, arg_count, records));
  }
};

} // namespace prof::core
