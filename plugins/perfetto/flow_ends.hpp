// FlowEnds: which correlation ids the exporter writes as flow ids.
//
// A flow arrow needs both its ends; an id written on one slice alone draws
// nothing and costs 4 to 6 bytes. Work on a device (a slice on a track with
// a device track above it) is started by a call on the host, which returns
// before the work completes,
// and sources hand work over once it completes: the call reaches the
// exporter first. So a call's id is always written and remembered, and work
// carries its id only when a call with that id came before it (device work
// whose calls were not recorded then costs nothing).
//
// Batches from different producers may still come out of order (a device
// queue's before the thread's that launched into it). Work whose id no call
// had yet is remembered too; when its call comes, the caller writes an
// instant named as the work, on its track at its start, with the flow id:
// the arrow still lands on the work, and prof's importer gives the work its
// id back (read/trace_emitter.cpp).
//
// Both memories are bounded (a few MB) and forget the oldest ids first:
// work that completes more than about a million calls after its launch, or
// comes more than some thousands of slices before its call, loses its arrow.
#ifndef PROF_PLUGINS_PERFETTO_FLOW_ENDS_HPP
#define PROF_PLUGINS_PERFETTO_FLOW_ENDS_HPP

#include <prof/event.h>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace prof::perfetto {

class FlowEnds {
public:
  /// Work that came before its call: where the flow's instant goes.
  struct EarlyWork {
    prof_track_id track = 0;
    prof_string_id name = 0;
    uint64_t ts = 0;
  };

  /// Call ids remembered: kCallSets sets of kWays (8 MB once full).
  static constexpr size_t kCallSets = size_t{1} << 18, kWays = 4;
  /// Work ids remembered before their call came (direct-mapped).
  static constexpr size_t kEarlySlots = size_t{1} << 14;

  /// A call (a slice on a thread or process track) with id `id` != 0: its
  /// id is written. Returns the work with that id that came before it, if
  /// any is remembered (it is then forgotten).
  std::optional<EarlyWork> call(uint64_t id) {
    remember_call(id);
    if (early_.empty()) return std::nullopt;
    Early &slot = early_[early_slot(id)];
    if (slot.id != id) return std::nullopt;
    slot.id = 0;
    return EarlyWork{slot.track, slot.name, slot.ts};
  }

  /// Work `e` (its id != 0): whether its id is written.
  bool work(const prof_event &e) {
    if (called(e.id)) return true;
    if (early_.empty()) early_.resize(kEarlySlots);
    early_[early_slot(e.id)] = {e.id, e.ts, e.track, e.name};
    return false;
  }

private:
  struct Early {
    uint64_t id = 0, ts = 0;
    prof_track_id track = 0;
    prof_string_id name = 0;
  };
  struct CallSet {
    std::array<uint64_t, kWays> ids{};
    uint32_t next = 0; ///< the way replaced next (the oldest)
  };

  static uint64_t mix(uint64_t id) { return (id ^ (id >> 29)) * 0x9E3779B97F4A7C15ull; }
  static size_t early_slot(uint64_t id) { return mix(id) >> (64 - 14); }
  static size_t call_set(uint64_t id) { return mix(id) >> (64 - 18); }

  bool called(uint64_t id) const {
    if (calls_.empty()) return false;
    for (uint64_t held : calls_[call_set(id)].ids)
      if (held == id) return true;
    return false;
  }
  void remember_call(uint64_t id) {
    if (calls_.empty()) calls_.resize(kCallSets);
    CallSet &set = calls_[call_set(id)];
    for (uint64_t held : set.ids)
      if (held == id) return;
    set.ids[set.next] = id;
    set.next = (set.next + 1) % kWays;
  }

  std::vector<CallSet> calls_; // allocated at the first call with an id
  std::vector<Early> early_;   // allocated at the first work with an id
};

static_assert(FlowEnds::kEarlySlots == size_t{1} << 14 && FlowEnds::kCallSets == size_t{1} << 18,
              "early_slot() and call_set() shift by these sizes");

} // namespace prof::perfetto

#endif
