// Ties an API call to the device work it queued with a flow, emitting both
// ends only once both are known: a call whose work was not selected (or
// queued none) gets no dangling flow. Either side may arrive first; what
// waits for its partner is bounded, the oldest forgotten first.
#pragma once

#include <prof/plugin.hpp>

#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_map>

namespace prof::gcu {

class FlowMatcher {
public:
  explicit FlowMatcher(const Host &host, size_t capacity = 65536)
      : host_(host), capacity_(capacity) {}

  /// The call with flow id `flow` began at `ts` on thread track `track`.
  void call(uint64_t flow, prof_track_id track, uint64_t ts) { meet(flow, {track, ts}, true); }
  /// Work of the call with flow id `flow` started at `ts` (device clock) on `track`.
  void work(uint64_t flow, prof_track_id track, uint64_t ts) { meet(flow, {track, ts}, false); }

private:
  struct End {
    prof_track_id track = 0;
    uint64_t ts = 0;
  };
  struct Waiting {
    End end;
    bool is_call = false;
  };
  void meet(uint64_t flow, End end, bool is_call);

  const Host &host_;
  const size_t capacity_;
  std::mutex mutex_;
  std::unordered_map<uint64_t, Waiting> waiting_;
  std::deque<uint64_t> order_; // flows in arrival order, for eviction
};

} // namespace prof::gcu
