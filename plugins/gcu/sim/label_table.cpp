#include "label_table.hpp"

#include <mutex>

namespace prof::gcusim {

LabelTable::LabelTable() {
  texts_.emplace_back();
  categories_.push_back(0);
}

uint32_t LabelTable::intern(std::string_view text, uint16_t category) {
  if (text.empty()) return 0;
  {
    std::shared_lock lock(mutex_);
    if (auto it = ids_.find(text); it != ids_.end()) return it->second;
  }
  std::unique_lock lock(mutex_);
  if (auto it = ids_.find(text); it != ids_.end()) return it->second;
  const std::string &stored = texts_.emplace_back(text);
  categories_.push_back(category);
  auto id = static_cast<uint32_t>(texts_.size() - 1);
  ids_.emplace(stored, id);
  return id;
}

const char *LabelTable::text(uint32_t id) const {
  std::shared_lock lock(mutex_);
  return id < texts_.size() ? texts_[id].c_str() : "";
}

uint16_t LabelTable::category(uint32_t id) const {
  std::shared_lock lock(mutex_);
  return id < categories_.size() ? categories_[id] : 0;
}

} // namespace prof::gcusim
