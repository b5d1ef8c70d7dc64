// Host API calls and the device work they launched, tied by correlation id
// (a device slice repeats the id of the call's slice): what the findings'
// launch and synchronization rules read. Only categories, the track tree and
// the argument keys docs/sdk.md fixes ("src_kind", "dst_kind"), never a
// vendor's names.
#pragma once

#include <prof/stats/arg_keys.hpp>

#include <prof/plugin.hpp>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace prof::stats {

/// Which host memory a copy read or wrote, from its `src_kind` and
/// `dst_kind` arguments.
enum class HostMemory : uint8_t {
  Unknown = 0,  ///< the copy names no memory kind
  Pageable = 1, ///< one side is "pageable"
  Other = 2     ///< it names its kinds, none "pageable"
};

/// A host slice of the runtime- or driver-API category with a correlation id.
struct LaunchCall {
  uint64_t correlation = 0;
  uint64_t ts = 0;
  uint64_t duration = 0;
  prof_string_id name = 0;
  prof_track_id track = 0;
  uint64_t end() const { return ts + duration; }
};

/// A slice with a correlation id that a call may have caused: device work
/// (kernels, copies, sets) or a wait (the sync category, on either side).
struct LaunchWork {
  uint64_t correlation = 0; ///< 0 for a wait on the host that names no call
  uint64_t ts = 0;
  uint64_t duration = 0;
  prof_string_id name = 0;
  prof_track_id device = 0; ///< the enclosing DEVICE track, 0 if none
  uint16_t kind = PROF_CATEGORY_OTHER;
  HostMemory memory = HostMemory::Unknown;
  bool host_side = false; ///< on a thread, not on or below a device
  uint64_t end() const { return ts + duration; }
};

/// A piece of work and the call whose correlation id it carries.
struct Launch {
  const LaunchCall *call;
  const LaunchWork *work;
};

class LaunchLog {
  friend struct AggregatorWire; // its bytes, for `prof stats` over MPI

public:
  /// Calls and pieces of work kept at most, each (about 48 bytes apiece):
  /// a long capture's summary stays bounded, and the rules say when they
  /// saw only the first ones.
  static constexpr size_t kMaxKept = size_t{1} << 21;

  explicit LaunchLog(const ExportHost &host) : host_(host) {}

  /// A slice: kept when it is a call, device work or a wait (see above).
  void add(const prof_event &slice, bool device_side, prof_track_id device);
  /// Appends what `other` has seen.
  void merge(LaunchLog &other);

  const std::vector<LaunchCall> &calls() const { return calls_; }
  const std::vector<LaunchWork> &work() const { return work_; }
  /// Calls and work beyond kMaxKept, not kept.
  uint64_t left_out() const { return left_out_; }
  /// Each piece of work whose call was seen, in the order of work().
  std::vector<Launch> launches() const;

private:
  HostMemory host_memory(const prof_event &slice);
  /// Whether a string argument value reads "pageable" (cached by id).
  bool is_pageable(prof_string_id value);

  ExportHost host_;
  ArgKeyCache src_keys_, dst_keys_;                   ///< "src_kind", "dst_kind"
  std::unordered_map<prof_string_id, bool> pageable_; ///< values: "pageable"
  std::vector<LaunchCall> calls_;
  std::vector<LaunchWork> work_;
  uint64_t left_out_ = 0;
};

} // namespace prof::stats
