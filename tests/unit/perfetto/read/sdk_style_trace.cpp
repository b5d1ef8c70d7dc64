#include "sdk_style_trace.hpp"

#include "trace_builder.hpp"

#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace prof::perfetto::testing {
namespace {

namespace te = pf::track_event;
namespace in = pf::interned_data;
namespace da = pf::debug_annotation;

constexpr uint64_t kBoot = 1'000'000'000'000; // BOOTTIME at the first step
constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kProcessUuid = 0x6a8f3c2b1d4e5f60; // the SDK's uuids are random
constexpr uint64_t kMainUuid = kProcessUuid ^ 1234;
constexpr uint64_t kLoaderUuid = kProcessUuid ^ 1235;
constexpr uint64_t kQueueUuid = 0x1b2c3d4e5f607182;
constexpr uint32_t kServiceSequence = 1, kMainSequence = 2, kLoaderSequence = 3;
constexpr uint32_t kCleared = pf::packet::kSeqIncrementalStateCleared;
constexpr uint32_t kNeeds = pf::packet::kSeqNeedsIncrementalState;

void thread_descriptor(ProtoWriter &o, uint64_t uuid, int tid, std::string_view name) {
  o.begin_nested(pf::packet::kTrackDescriptor);
  o.field_varint(pf::track_descriptor::kUuid, uuid);
  o.field_varint(pf::track_descriptor::kParentUuid, kProcessUuid);
  o.begin_nested(pf::track_descriptor::kThread);
  o.field_int(pf::thread_descriptor::kPid, 1234);
  o.field_int(pf::thread_descriptor::kTid, tid);
  o.field_bytes(pf::thread_descriptor::kThreadName, name);
  o.end_nested();
  o.end_nested();
}

/// The first packet of a thread's sequence: cleared state, its clock and track.
void first_packet(TraceBuilder &b, uint32_t sequence, uint64_t uuid, int tid, std::string_view name,
                  uint64_t now) {
  b.packet(sequence, std::nullopt, kCleared, [&](ProtoWriter &o) {
    packet_defaults(o, 64, uuid);
    clock_snapshot(o, {{6, now}, {64, now, true}});
  });
  b.packet(sequence, std::nullopt, kNeeds,
           [&](ProtoWriter &o) { thread_descriptor(o, uuid, tid, name); });
}

/// A slice begin or end, or an instant, with what it interns and annotates.
struct Write {
  uint32_t type = te::kTypeSliceBegin;
  uint64_t name_iid = 0, category_iid = 0;
  std::vector<std::pair<uint64_t, std::string>> names, categories; ///< interned here
  std::vector<std::pair<uint64_t, std::string>> annotation_names, annotation_values;
  std::function<void(ProtoWriter &)> annotations = [](ProtoWriter &) {};
  std::vector<uint64_t> flows, terminating_flows, old_flows;
  uint64_t track = 0; ///< 0: the sequence's default
  std::optional<int64_t> counter;
};

/// Writes `w` at time `at` on `sequence`, whose clock was last at `last`.
void write(TraceBuilder &b, uint32_t sequence, uint64_t &last, uint64_t at, const Write &w) {
  const uint64_t delta = at - last; // the sequence's clock is incremental
  last = at;
  b.packet(sequence, delta, kNeeds, [&](ProtoWriter &o) {
    if (!w.names.empty() || !w.categories.empty() || !w.annotation_names.empty() ||
        !w.annotation_values.empty()) {
      o.begin_nested(pf::packet::kInternedData);
      for (const auto &[iid, text] : w.categories)
        intern(o, in::kEventCategories, iid, text);
      for (const auto &[iid, text] : w.names)
        intern(o, in::kEventNames, iid, text);
      for (const auto &[iid, text] : w.annotation_names)
        intern(o, in::kDebugAnnotationNames, iid, text);
      for (const auto &[iid, text] : w.annotation_values)
        intern(o, in::kDebugAnnotationStringValues, iid, text);
      o.end_nested();
    }
    o.begin_nested(pf::packet::kTrackEvent);
    if (w.category_iid != 0) o.field_varint(te::kCategoryIids, w.category_iid);
    o.field_varint(te::kType, w.type);
    if (w.track != 0) o.field_varint(te::kTrackUuid, w.track);
    if (w.name_iid != 0) o.field_varint(te::kNameIid, w.name_iid);
    if (w.counter) o.field_int(te::kCounterValue, *w.counter);
    for (const uint64_t id : w.flows)
      o.field_fixed64(te::kFlowIds, id);
    for (const uint64_t id : w.terminating_flows)
      o.field_fixed64(te::kTerminatingFlowIds, id);
    for (const uint64_t id : w.old_flows)
      o.field_varint(te::kFlowIdsOld, id);
    w.annotations(o);
    o.end_nested();
  });
}

Write end() { return Write{.type = te::kTypeSliceEnd}; }

} // namespace

std::string sdk_style_trace() {
  TraceBuilder b;
  // The service's snapshot: MONOTONIC 5 ms behind BOOTTIME, and the wall clock.
  b.packet(kServiceSequence, std::nullopt, 0, [](ProtoWriter &o) {
    clock_snapshot(o, {{6, kBoot - kMs}, {3, kBoot - 6 * kMs}, {1, 1'760'000'000'000'000'000}});
  });
  first_packet(b, kMainSequence, kMainUuid, 1234, "trainer", kBoot);
  b.packet(kMainSequence, std::nullopt, kNeeds, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kTrackDescriptor);
    o.field_varint(pf::track_descriptor::kUuid, kProcessUuid);
    o.begin_nested(pf::track_descriptor::kProcess);
    o.field_int(pf::process_descriptor::kPid, 1234);
    for (const char *arg : {"trainer", "--epochs", "3"})
      o.field_bytes(pf::process_descriptor::kCmdline, arg);
    o.field_bytes(pf::process_descriptor::kProcessName, "trainer");
    o.end_nested();
    o.end_nested();
  });
  b.packet(kMainSequence, std::nullopt, kNeeds, [](ProtoWriter &o) {
    o.begin_nested(pf::packet::kTrackDescriptor);
    o.field_varint(pf::track_descriptor::kUuid, kQueueUuid);
    o.field_varint(pf::track_descriptor::kParentUuid, kProcessUuid);
    o.field_bytes(pf::track_descriptor::kName, "queue depth");
    o.begin_nested(pf::track_descriptor::kCounter);
    o.end_nested();
    o.end_nested();
  });
  first_packet(b, kLoaderSequence, kLoaderUuid, 1235, "loader", kBoot);

  uint64_t main_clock = kBoot, loader_clock = kBoot;
  const auto on_main = [&](uint64_t at, const Write &w) {
    write(b, kMainSequence, main_clock, at, w);
  };
  const auto on_loader = [&](uint64_t at, const Write &w) {
    write(b, kLoaderSequence, loader_clock, at, w);
  };
  for (uint64_t step = 0; step < 3; ++step) {
    const bool first = step == 0;
    const uint64_t t0 = kBoot + step * 25 * kMs;
    // The main thread: step > forward, backward; the queue's depth.
    Write begin_step{.name_iid = 1, .category_iid = 1};
    if (first) {
      begin_step.names = {{1, "step"}};
      begin_step.categories = {{1, "train"}};
      begin_step.annotation_names = {{1, "step"}};
    }
    begin_step.annotations = [step](ProtoWriter &o) {
      o.begin_nested(te::kDebugAnnotations);
      o.field_varint(da::kNameIid, 1);
      o.field_varint(da::kUintValue, step + 1);
      o.end_nested();
    };
    begin_step.flows = {0x7000 + step};
    on_main(t0, begin_step);
    on_main(t0, Write{.type = te::kTypeCounter,
                      .track = kQueueUuid,
                      .counter = static_cast<int64_t>(3 - step)});
    Write forward{.name_iid = 2, .category_iid = 2};
    if (first) {
      forward.names = {{2, "forward"}};
      forward.categories = {{2, "model"}};
      forward.annotation_names = {{2, "layers"}};
    }
    forward.annotations = [](ProtoWriter &o) {
      o.begin_nested(te::kDebugAnnotations);
      o.field_varint(da::kNameIid, 2);
      o.field_int(da::kIntValue, 12);
      o.end_nested();
    };
    on_main(t0 + kMs, forward);
    on_main(t0 + 5 * kMs, end());
    Write backward{.name_iid = 3, .category_iid = 2};
    if (first) backward.names = {{3, "backward"}};
    on_main(t0 + 6 * kMs, backward);
    on_main(t0 + 14 * kMs, end());
    on_main(t0 + 15 * kMs, end()); // the step

    // The loader: the batch the step asked for, then a flow back.
    Write load{.name_iid = 1, .category_iid = 1};
    if (first) {
      load.names = {{1, "load batch"}};
      load.categories = {{1, "data"}};
      load.annotation_names = {{1, "source"}};
    }
    load.annotation_values = {{step + 1, "shard-" + std::to_string(step)}};
    load.annotations = [step](ProtoWriter &o) {
      o.begin_nested(te::kDebugAnnotations);
      o.field_varint(da::kNameIid, 1);
      o.field_varint(da::kStringValueIid, step + 1);
      o.end_nested();
    };
    load.terminating_flows = {0x7000 + step};
    on_loader(t0 + 15 * kMs + kMs / 2, load);
    on_loader(t0 + 19 * kMs, end());
    Write ready{.type = te::kTypeInstant, .name_iid = 2, .category_iid = 1};
    if (first) ready.names = {{2, "batch ready"}};
    ready.old_flows = {0x8000 + step};
    on_loader(t0 + 19 * kMs, ready);

    Write taken{.type = te::kTypeInstant, .name_iid = 4, .category_iid = 1};
    if (first) taken.names = {{4, "batch taken"}};
    taken.terminating_flows = {0x8000 + step};
    on_main(t0 + 19 * kMs + kMs / 2, taken);
  }
  return b.bytes();
}

} // namespace prof::perfetto::testing
