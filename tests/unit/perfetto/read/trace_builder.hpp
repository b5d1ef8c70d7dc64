// Hand-built Perfetto traces for the importer's tests: packets written with
// the exporter's ProtoWriter, field by field, so a test states exactly the
// bytes the reader meets (interned data, sequence flags, clocks, packed and
// unpacked fields), and an import of them through a fake host.
#pragma once

#include "perfetto_fields.hpp"
#include "proto_writer.hpp"
#include "read/perfetto_importer.hpp"

#include <prof/testing/fake_source_host.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::perfetto::testing {

namespace pf = prof::perfetto::field;

class TraceBuilder {
public:
  /// A packet of sequence `seq` (0: none written) with `flags`; `body`
  /// writes the rest of its fields.
  template <class Body>
  TraceBuilder &packet(uint32_t seq, std::optional<uint64_t> ts, uint32_t flags, Body &&body) {
    out_->begin_nested(pf::trace::kPacket);
    if (ts) out_->field_varint(pf::packet::kTimestamp, *ts);
    if (seq != 0) out_->field_varint(pf::packet::kTrustedPacketSequenceId, seq);
    if (flags != 0) out_->field_varint(pf::packet::kSequenceFlags, flags);
    body(*out_);
    out_->end_nested();
    return *this;
  }

  TraceBuilder &process(uint64_t uuid, int pid, std::string_view name) {
    return descriptor([&](ProtoWriter &o) {
      o.field_varint(pf::track_descriptor::kUuid, uuid);
      o.begin_nested(pf::track_descriptor::kProcess);
      o.field_int(pf::process_descriptor::kPid, pid);
      o.field_bytes(pf::process_descriptor::kProcessName, name);
      o.end_nested();
    });
  }
  TraceBuilder &thread(uint64_t uuid, int pid, int tid, std::string_view name) {
    return descriptor([&](ProtoWriter &o) {
      o.field_varint(pf::track_descriptor::kUuid, uuid);
      o.begin_nested(pf::track_descriptor::kThread);
      o.field_int(pf::thread_descriptor::kPid, pid);
      o.field_int(pf::thread_descriptor::kTid, tid);
      o.field_bytes(pf::thread_descriptor::kThreadName, name);
      o.end_nested();
    });
  }
  /// A named track under `parent` (0: none).
  TraceBuilder &track(uint64_t uuid, uint64_t parent, std::string_view name) {
    return descriptor([&](ProtoWriter &o) {
      o.field_varint(pf::track_descriptor::kUuid, uuid);
      if (parent != 0) o.field_varint(pf::track_descriptor::kParentUuid, parent);
      o.field_bytes(pf::track_descriptor::kName, name);
    });
  }
  /// A counter track; `unit` a CounterDescriptor.Unit (0: none).
  TraceBuilder &counter(uint64_t uuid, uint64_t parent, std::string_view name, uint32_t unit = 0,
                        bool incremental = false, int64_t multiplier = 0) {
    return descriptor([&](ProtoWriter &o) {
      o.field_varint(pf::track_descriptor::kUuid, uuid);
      if (parent != 0) o.field_varint(pf::track_descriptor::kParentUuid, parent);
      o.field_bytes(pf::track_descriptor::kName, name);
      o.begin_nested(pf::track_descriptor::kCounter);
      if (unit != 0) o.field_varint(pf::counter_descriptor::kUnit, unit);
      if (multiplier != 0) o.field_int(pf::counter_descriptor::kUnitMultiplier, multiplier);
      if (incremental) o.field_varint(pf::counter_descriptor::kIsIncremental, 1);
      o.end_nested();
    });
  }
  template <class Body> TraceBuilder &descriptor(Body &&body) {
    return packet(kDescriptorSequence, std::nullopt, 0, [&](ProtoWriter &o) {
      o.begin_nested(pf::packet::kTrackDescriptor);
      body(o);
      o.end_nested();
    });
  }

  std::string bytes() const { return std::string(out_->view()); }
  static constexpr uint32_t kDescriptorSequence = 99;

private:
  std::unique_ptr<ProtoWriter> out_ = std::make_unique<ProtoWriter>();
};

/// InternedData entries {iid, name} in `field` of InternedData.
inline void intern(ProtoWriter &o, uint32_t field, uint64_t iid, std::string_view name) {
  o.begin_nested(field);
  o.field_varint(pf::interned_entry::kIid, iid);
  o.field_bytes(pf::interned_entry::kName, name);
  o.end_nested();
}

/// A TrackEvent's fields.
struct Event {
  uint32_t type = pf::track_event::kTypeInstant;
  std::optional<uint64_t> track;
  uint64_t name_iid = 0;
  std::string name;
  std::vector<uint64_t> category_iids;
  std::vector<std::string> categories;
  std::optional<int64_t> counter;
  std::optional<double> double_counter;
  std::vector<uint64_t> flows, terminating_flows; ///< written as fixed64
  std::vector<uint64_t> old_flows;                ///< flow_ids_old, varints
  uint64_t correlation = 0;
};

/// Writes TracePacket.track_event; `annotations` writes its annotations.
template <class Annotations>
void track_event(ProtoWriter &o, const Event &e, Annotations &&annotations) {
  namespace te = pf::track_event;
  o.begin_nested(pf::packet::kTrackEvent);
  o.field_varint(te::kType, e.type);
  if (e.track) o.field_varint(te::kTrackUuid, *e.track);
  if (e.name_iid != 0) o.field_varint(te::kNameIid, e.name_iid);
  if (!e.name.empty()) o.field_bytes(te::kName, e.name);
  for (const uint64_t iid : e.category_iids)
    o.field_varint(te::kCategoryIids, iid);
  for (const std::string &c : e.categories)
    o.field_bytes(te::kCategories, c);
  if (e.counter) o.field_int(te::kCounterValue, *e.counter);
  if (e.double_counter) o.field_double(te::kDoubleCounterValue, *e.double_counter);
  for (const uint64_t id : e.flows)
    o.field_fixed64(te::kFlowIds, id);
  for (const uint64_t id : e.terminating_flows)
    o.field_fixed64(te::kTerminatingFlowIds, id);
  for (const uint64_t id : e.old_flows)
    o.field_varint(te::kFlowIdsOld, id);
  if (e.correlation != 0) o.field_varint(te::kCorrelationId, e.correlation);
  annotations(o);
  o.end_nested();
}
inline void track_event(ProtoWriter &o, const Event &e) {
  track_event(o, e, [](ProtoWriter &) {});
}

/// A ClockSnapshot of `clocks` {id, timestamp, incremental, multiplier}.
struct Clock {
  uint32_t id = 0;
  uint64_t timestamp = 0;
  bool incremental = false;
  uint64_t multiplier = 0;
};
inline void clock_snapshot(ProtoWriter &o, const std::vector<Clock> &clocks) {
  namespace c = pf::clock;
  o.begin_nested(pf::packet::kClockSnapshot);
  for (const Clock &clock : clocks) {
    o.begin_nested(pf::clock_snapshot::kClocks);
    o.field_varint(c::kClockId, clock.id);
    o.field_varint(c::kTimestamp, clock.timestamp);
    if (clock.incremental) o.field_varint(c::kIsIncremental, 1);
    if (clock.multiplier != 0) o.field_varint(c::kUnitMultiplierNs, clock.multiplier);
    o.end_nested();
  }
  o.end_nested();
}

/// TracePacketDefaults with a clock and a default track (0: none).
inline void packet_defaults(ProtoWriter &o, std::optional<uint32_t> clock, uint64_t track) {
  o.begin_nested(pf::packet::kTracePacketDefaults);
  if (clock) o.field_varint(pf::trace_packet_defaults::kTimestampClockId, *clock);
  if (track != 0) {
    o.begin_nested(pf::trace_packet_defaults::kTrackEventDefaults);
    o.field_varint(pf::track_event_defaults::kTrackUuid, track);
    o.end_nested();
  }
  o.end_nested();
}

/// What an import through the fake host gave.
struct Imported {
  bool ok = false;
  prof::testing::FakeSourceHost host{0, prof::testing::HostAbi::current};
  std::string program, format, rank;
  std::vector<int32_t> pids;
  uint64_t realtime_anchor = 0, monotonic_anchor = 0, start = 0;
  bool has_facts = false;

  std::vector<std::string> warnings() const { return host.logs(PROF_LOG_WARN); }
  /// Whether a warning is `line`, or starts with it when `prefix`.
  bool warned(const std::string &line, bool prefix = false) const {
    for (const std::string &w : warnings())
      if (prefix ? w.starts_with(line) : w == line) return true;
    return false;
  }
  std::vector<std::string> errors() const { return host.errors(); }
  /// The track named `name` (a test failure when there is none).
  prof::testing::FakeSourceHost::Track track(const std::string &name) const;
  /// The slices named `name`, in emit order.
  std::vector<prof::testing::FakeSourceHost::Slice> slices(const std::string &name) const;
};

/// Imports `bytes` with PerfettoImporter::read; `rank` as --rank gives it.
std::unique_ptr<Imported> import(const std::string &bytes, int64_t rank = -1,
                                 int64_t name_rank = -1);

} // namespace prof::perfetto::testing
