#include "core/capture/unfinished_ask.hpp"

#include "core/runtime/shared_futex.hpp"

#include <climits>

namespace prof::core {

bool UnfinishedAsk::ask(uint64_t now) {
  if (headers_.empty()) return false;
  if (asking_) return true; // one question serves the dumps asked meanwhile
  asked_.clear();
  for (ShmHeader *header : headers_) {
    asked_.push_back(header->unfinished_asked.fetch_add(1, std::memory_order_acq_rel) + 1);
    // Every process of the region sleeps on the word: wake them all.
    shared_futex_wake(header->unfinished_asked, INT_MAX);
  }
  asked_at_ = now;
  asking_ = true;
  drain_left_ = false;
  return true;
}

bool UnfinishedAsk::answered() const {
  for (size_t i = 0; i < headers_.size(); ++i) {
    const uint32_t told = headers_[i]->unfinished_told.load(std::memory_order_acquire);
    if (static_cast<int32_t>(told - asked_[i]) < 0) return false;
  }
  return true;
}

bool UnfinishedAsk::ready(uint64_t now) {
  if (!asking_) return false;
  if (drain_left_) {
    asking_ = false;
    return true;
  }
  drain_left_ = (answered() && now >= asked_at_ + kLagNs) || now >= asked_at_ + kTimeoutNs;
  return false;
}

} // namespace prof::core
