#include "core/catalog/stack_table.hpp"

namespace prof::core {

StackTable::StackTable() { intern({}); }

prof_stack_id StackTable::intern(std::span<const prof_string_id> frames) {
  std::vector<prof_string_id> key(frames.begin(), frames.end());
  std::lock_guard lock(mutex_);
  if (auto it = ids_.find(key); it != ids_.end()) return it->second;
  auto id = static_cast<prof_stack_id>(stacks_.size());
  stacks_.push_back(key);
  ids_.emplace(std::move(key), id);
  published_.store(stacks_.size(), std::memory_order_release);
  return id;
}

void StackTable::restore(prof_stack_id id, std::span<const prof_string_id> frames) {
  std::vector<prof_string_id> key(frames.begin(), frames.end());
  std::lock_guard lock(mutex_);
  while (stacks_.size() < id)
    stacks_.push_back({});
  if (stacks_.size() != id) return;
  stacks_.push_back(key);
  ids_.emplace(std::move(key), id);
  published_.store(stacks_.size(), std::memory_order_release);
}

std::span<const prof_string_id> StackTable::frames(prof_stack_id id) const {
  if (id >= size()) return {};
  return stacks_[id];
}

} // namespace prof::core
