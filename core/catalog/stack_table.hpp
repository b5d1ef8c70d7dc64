// Session-wide interned call stacks: sequences of function-name string ids,
// leaf first.
#pragma once

#include "core/catalog/stable_vector.hpp"

#include <prof/event.h>

#include <atomic>
#include <map>
#include <mutex>
#include <span>
#include <vector>

namespace prof::core {

class StackTable {
public:
  StackTable(); // id 0 is the empty stack
  StackTable(const StackTable &) = delete;
  StackTable &operator=(const StackTable &) = delete;

  prof_stack_id intern(std::span<const prof_string_id> frames);
  /// Puts `frames` at exactly `id` (reading a report); gaps stay empty.
  void restore(prof_stack_id id, std::span<const prof_string_id> frames);
  /// Frames of `id`, empty for an unknown id.
  std::span<const prof_string_id> frames(prof_stack_id id) const;
  size_t size() const { return published_.load(std::memory_order_acquire); }

private:
  StableVector<std::vector<prof_string_id>> stacks_;
  std::map<std::vector<prof_string_id>, prof_stack_id> ids_;
  std::mutex mutex_;
  std::atomic<size_t> published_{0};
};

} // namespace prof::core
