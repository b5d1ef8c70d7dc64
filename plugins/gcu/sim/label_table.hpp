// Strings that records name work with (kernel names, "Memcpy HtoD"), by id.
// Id 0 is "". Strings live for the process, so label() can hand out pointers.
#ifndef PROF_GCUSIM_LABEL_TABLE_HPP
#define PROF_GCUSIM_LABEL_TABLE_HPP

#include <cstdint>
#include <deque>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace prof::gcusim {

class LabelTable {
public:
  LabelTable();
  /// The id of `text`, adding it on first use with `category` (a
  /// prof_category: what the work it names is, 0 when it does not say).
  uint32_t intern(std::string_view text, uint16_t category = 0);
  /// The text of `id`, "" for an unknown id.
  const char *text(uint32_t id) const;
  /// The category `id` was added with, 0 for an unknown id.
  uint16_t category(uint32_t id) const;

private:
  mutable std::shared_mutex mutex_;
  std::deque<std::string> texts_; // a deque never moves its elements
  std::deque<uint16_t> categories_;
  std::unordered_map<std::string_view, uint32_t> ids_;
};

} // namespace prof::gcusim

#endif
