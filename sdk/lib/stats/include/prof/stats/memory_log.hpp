// Device memory over a capture, from the memory events of any device source
// (event.h, "Memory events"): the allocations and frees under each device,
// the host API calls their `correlation` arguments name, and from them each
// device's peak of live device memory, the blocks live at the peak and the
// blocks never freed. Reads only the category, the track tree and the
// argument keys event.h fixes, never a vendor's names.
#pragma once

#include <prof/plugin.hpp>

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace prof::stats {

/// One allocation or free.
struct MemoryOp {
  uint64_t ts = 0;
  prof_track_id device = 0; ///< the enclosing DEVICE track
  bool alloc = false;
  uint64_t address = 0;
  uint64_t bytes = 0;
  prof_string_id memory = 0; ///< the `memory` argument ("device", "pinned"), 0 when none
  uint64_t correlation = 0;  ///< the `correlation` argument, 0 when none
};

/// A block: live at a device's peak, or never freed.
struct MemoryBlock {
  uint64_t address = 0;
  uint64_t bytes = 0;
  prof_string_id memory = 0;
  uint64_t correlation = 0;
  uint64_t allocated_ts = 0;
};

/// What one device's memory did. Device memory is a block whose `memory`
/// argument is "device" or absent; others ("pinned", ...) are listed as
/// leaks but make no peak.
struct DeviceMemoryUse {
  prof_track_id device = 0;
  uint64_t peak_bytes = 0;          ///< most device memory live at once
  uint64_t peak_ts = 0;             ///< when it was first reached (0 when peak_bytes is 0)
  std::vector<MemoryBlock> at_peak; ///< device blocks live then, by bytes descending
  std::vector<MemoryBlock> leaks;   ///< blocks of any memory never freed, by bytes descending
  uint64_t allocs = 0;
  uint64_t frees = 0;
  uint64_t unmatched_frees =
      0; ///< frees of blocks not seen allocated (before the capture): ignored
};

/// A host slice with a correlation id: the API call memory events name.
struct MemoryCall {
  prof_string_id name = 0;
  prof_track_id track = 0;
};

class MemoryLog {
  friend struct AggregatorWire; // its bytes, for `prof stats` over MPI

public:
  explicit MemoryLog(const ExportHost &host) : host_(host) {}

  /// A memory instant under DEVICE track `device`; others are ignored, as
  /// are ones without operation, address or bytes.
  void add_event(const prof_event &event, prof_track_id device);
  /// A host slice: kept when it has an id a memory event may name.
  void add_call(const prof_event &slice);
  /// Appends what `other` has seen, which came later in the report.
  void merge(MemoryLog &other);

  bool empty() const { return ops_.empty(); }
  const std::vector<MemoryOp> &ops() const { return ops_; }
  /// The call whose slice has id `correlation`; nullptr when none was seen.
  const MemoryCall *call(uint64_t correlation) const;
  /// Each device's use, devices in the order of their first event. Events
  /// are taken in time order; equal times in report order.
  std::vector<DeviceMemoryUse> analyze() const;

private:
  enum class Key : uint8_t { Other, Operation, Address, Bytes, Memory, Correlation };
  Key key_of(prof_string_id key);
  /// 1 alloc, 0 free, -1 anything else.
  int operation_of(prof_string_id value);
  bool is_device_memory(prof_string_id memory) const;

  ExportHost host_;
  std::unordered_map<prof_string_id, Key> keys_;
  std::unordered_map<prof_string_id, int> operations_;
  mutable std::unordered_map<prof_string_id, bool> device_memory_;
  std::vector<MemoryOp> ops_;
  std::unordered_map<uint64_t, MemoryCall> calls_;
};

} // namespace prof::stats
