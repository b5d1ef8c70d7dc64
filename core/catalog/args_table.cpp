#include "core/catalog/args_table.hpp"

#include <prof/event.hpp>

#include <cstring>

namespace prof::core {

ArgsTable::ArgsTable() {
  sets_.push_back({});
  published_.store(1, std::memory_order_release);
}

std::string ArgsTable::key_of(std::span<const prof_arg> args) {
  std::string key(args.size() * sizeof(prof_arg), '\0');
  for (size_t i = 0; i < args.size(); ++i) {
    prof_arg a = args[i];
    if (prof::arg_is_id(a.type)) a.value.u &= 0xffffffffu; // unused upper half
    std::memcpy(key.data() + i * sizeof a, &a, sizeof a);
  }
  return key;
}

prof_args_id ArgsTable::intern(std::span<const prof_arg> args) {
  if (args.empty()) return 0;
  std::string key = key_of(args);
  std::lock_guard lock(mutex_);
  if (auto it = ids_.find(key); it != ids_.end()) return it->second;
  if (!free_.empty()) {
    const prof_args_id id = free_.back();
    free_.pop_back();
    sets_[id].assign(args.begin(), args.end());
    ids_.emplace(std::move(key), id);
    return id;
  }
  const auto id = static_cast<prof_args_id>(sets_.size());
  sets_.push_back(std::vector<prof_arg>(args.begin(), args.end()));
  ids_.emplace(std::move(key), id);
  published_.store(sets_.size(), std::memory_order_release);
  return id;
}

void ArgsTable::restore(prof_args_id id, std::span<const prof_arg> args) {
  std::lock_guard lock(mutex_);
  while (sets_.size() < id)
    sets_.push_back({});
  if (id == 0 || sets_.size() != id) return;
  sets_.push_back(std::vector<prof_arg>(args.begin(), args.end()));
  ids_.emplace(key_of(args), id);
  published_.store(sets_.size(), std::memory_order_release);
}

size_t ArgsTable::release_unreferenced(const std::vector<bool> &referenced) {
  std::lock_guard lock(mutex_);
  size_t freed = 0;
  for (size_t id = 1; id < sets_.size(); ++id) {
    std::vector<prof_arg> &set = sets_[id];
    if (set.empty() || (id < referenced.size() && referenced[id])) continue;
    ids_.erase(key_of(set));
    std::vector<prof_arg>().swap(set); // gives its memory back
    free_.push_back(static_cast<prof_args_id>(id));
    ++freed;
  }
  return freed;
}

size_t ArgsTable::live() const {
  std::lock_guard lock(mutex_);
  return sets_.size() - 1 - free_.size();
}

std::span<const prof_arg> ArgsTable::args(prof_args_id id) const {
  if (id >= size()) return {};
  return sets_[id];
}

} // namespace prof::core
