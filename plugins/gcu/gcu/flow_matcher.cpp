#include "flow_matcher.hpp"

namespace prof::gcu {

void FlowMatcher::meet(uint64_t flow, End end, bool is_call) {
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

} // namespace prof::gcu
