// prof's side of the shared region: reads the catalog log the agents append
// to, then drains their rings, turning shared ids into the session's ids.
#pragma once

#include "core/catalog/catalog.hpp"
#include "core/events/event_source.hpp"
#include "core/runtime/shm_region.hpp"

#include <memory>
#include <vector>

namespace prof::core {

class ShmEventSource final : public EventSource {
public:
  ShmEventSource(ShmRegion &region, Catalog &catalog);
  ShmRegion &region() { return region_; }

  size_t drain(const std::function<void(prof_event *, size_t)> &consume, bool all) override;
  uint64_t dropped() const override;
  /// The rings' drops, then one per other cause (report::cause_ring): events
  /// refused as invalid, records the application's plugins lost, definitions
  /// the full catalog refused.
  std::vector<RingDrops> drops() const override;
  /// Definitions refused because the catalog log was full.
  uint64_t catalog_overflow() const;
  /// Events of the applications refused because they named what their
  /// catalog never defined.
  uint64_t invalid() const { return invalid_; }
  /// Reads catalog records published since the last call.
  void sync_catalog();
  /// Rings kept free and backed for the application's new threads (a
  /// thread that finds none backs the next itself, paying for it once).
  static constexpr uint32_t kSpareRings = 1;

private:
  void apply(uint16_t type, uint16_t flags, const char *payload, uint32_t bytes);
  /// Whether a definition's id is one an honest log can hold (counted when not).
  bool possible_id(uint32_t shared);
  static void put(std::vector<uint32_t> &ids, uint32_t shared, uint32_t session);
  /// Says once what a buggy or hostile application's writes cost.
  void warn_about_corruption();
  /// Reserves more rings when few backed ones are free.
  void keep_rings_spare();
  /// Marks a shared id the application's catalog never defined.
  static constexpr uint32_t kUndefined = UINT32_MAX;
  static uint32_t map(const std::vector<uint32_t> &ids, uint32_t id) {
    return id < ids.size() && ids[id] != kUndefined ? ids[id] : 0;
  }
  static bool defined(const std::vector<uint32_t> &ids, uint32_t id) {
    return id < ids.size() && ids[id] != kUndefined;
  }
  /// Maps ids to the session's; drops events that name undefined ids. Returns those kept.
  size_t translate(prof_event *events, size_t count);

  ShmRegion &region_;
  Catalog &catalog_;
  std::unique_ptr<RingPool> pool_;
  uint64_t read_offset_ = 0;
  uintptr_t catalog_given_back_ = 0; ///< end of the log's pages prof gave back
  uint64_t max_id_ = 0;
  uint64_t invalid_ = 0; // events naming what the application's catalog never defined
  uint64_t corrupt_definitions_ = 0, reported_corrupt_definitions_ = 0;
  bool cannot_grow_ = false; // the mount is full, or every ring is backed
  // Shared id -> session id, for each kind of definition.
  std::vector<uint32_t> strings_{0}, tracks_{0}, stacks_{0}, clocks_{PROF_CLOCK_SESSION, PROF_CLOCK_TSC};
};

} // namespace prof::core
