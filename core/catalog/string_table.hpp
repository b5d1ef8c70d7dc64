// Session-wide interned strings: any thread may intern, and readers may look
// up any id that has been handed out without taking a lock.
#pragma once

#include "core/catalog/stable_vector.hpp"

#include <prof/event.h>

#include <atomic>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace prof::core {

class StringTable {
public:
  StringTable(); // id 0 is ""
  StringTable(const StringTable &) = delete;
  StringTable &operator=(const StringTable &) = delete;

  /// Id of `text`, adding it on first sight.
  prof_string_id intern(std::string_view text);
  /// Puts `text` at exactly `id` (reading a report); gaps before it stay "".
  void restore(prof_string_id id, std::string_view text);
  /// Text of `id`; "" for an id not (yet) handed out.
  const std::string &text(prof_string_id id) const;
  /// Number of ids handed out (ids are 0 .. size()-1).
  size_t size() const { return published_.load(std::memory_order_acquire); }

private:
  StableVector<std::string> texts_; // element addresses never move
  std::unordered_map<std::string_view, prof_string_id> ids_;
  std::mutex mutex_;
  std::atomic<size_t> published_{0};
};

} // namespace prof::core
