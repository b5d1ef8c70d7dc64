// Ties an API call to the device work it queued with a flow, emitting both
// ends only once both are known: a call whose work was not selected (or
// queued none) gets no dangling flow. Either side may arrive first; what
// waits for its partner is bounded, the oldest forgotten first.
#ifndef PROF_FLOW_MATCHER_HPP
#define PROF_FLOW_MATCHER_HPP

#include <prof/plugin.hpp>

#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_map>

namespace prof {

/// Emits the two ends of each call-to-work flow once both are known (thread safe).
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

inline void FlowMatcher::meet(uint64_t flow, End end, bool is_call) {
  End partner;
  {
    std::lock_guard lock(mutex_);
    auto it = waiting_.find(flow);
    if (it == waiting_.end() || it->second.is_call == is_call) {
      // A work record repeating its call's id (a second record) finds only its own kind.
      if (it == waiting_.end()) {
        if (order_.size() >= capacity_) {
          waiting_.erase(order_.front());
          order_.pop_front();
        }
        waiting_.emplace(flow, Waiting{end, is_call});
        order_.push_back(flow);
      }
      return;
    }
    partner = it->second.end;
    waiting_.erase(it); // its entry in order_ is skipped when evicted
  }
  const End &call = is_call ? end : partner;
  const End &work = is_call ? partner : end;
  host_.api()->emit_flow(host_.context(), call.track, call.ts, flow, PROF_FLOW_BEGIN);
  host_.api()->emit_flow(host_.context(), work.track, work.ts, flow, PROF_FLOW_END);
}

} // namespace prof

#endif
