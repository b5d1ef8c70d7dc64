#include "core/catalog/string_table.hpp"

namespace prof::core {

namespace {
const std::string empty_string;
}

StringTable::StringTable() { intern(""); }

prof_string_id StringTable::intern(std::string_view text) {
  std::lock_guard lock(mutex_);
  if (auto it = ids_.find(text); it != ids_.end()) return it->second;
  auto id = static_cast<prof_string_id>(texts_.size());
  const std::string &at = texts_.push_back(std::string(text));
  ids_.emplace(std::string_view(at), id);
  published_.store(texts_.size(), std::memory_order_release);
  return id;
}

void StringTable::restore(prof_string_id id, std::string_view text) {
  std::lock_guard lock(mutex_);
  while (texts_.size() < id)
    texts_.push_back(std::string()); // gaps are not interned
  if (texts_.size() != id) return;
  const std::string &at = texts_.push_back(std::string(text));
  ids_.emplace(std::string_view(at), id);
  published_.store(texts_.size(), std::memory_order_release);
}

const std::string &StringTable::text(prof_string_id id) const {
  return id < size() ? texts_[id] : empty_string;
}

} // namespace prof::core
