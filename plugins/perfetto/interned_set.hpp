// InternedSet: which interning ids a packet sequence has already defined.
// prof's ids are dense small integers, so a bitmap indexed by id is enough.
// The bitmap is split into pages allocated when first touched: the exporter
// keeps a set per track, and a track that uses a few names with large ids
// then costs a few pages, not a bitmap as long as the largest id.
#ifndef PROF_PLUGINS_PERFETTO_INTERNED_SET_HPP
#define PROF_PLUGINS_PERFETTO_INTERNED_SET_HPP

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace prof::perfetto {

class InternedSet {
public:
  /// Ids per page: 4096 bits, 512 bytes.
  static constexpr uint64_t kPageIds = 4096;

  /// True when `id` was not in the set (the caller then emits its entry).
  bool insert(uint64_t id) {
    uint64_t &word = word_of(id);
    const uint64_t bit = uint64_t{1} << (id & 63);
    if (word & bit) return false;
    word |= bit;
    return true;
  }
  bool contains(uint64_t id) const {
    const uint64_t page = id / kPageIds;
    return page < pages_.size() && pages_[page] != nullptr &&
           ((*pages_[page])[(id % kPageIds) >> 6] >> (id & 63) & 1) != 0;
  }
  /// Pages allocated (for tests).
  size_t pages() const {
    size_t n = 0;
    for (const auto &page : pages_)
      n += page != nullptr;
    return n;
  }

private:
  using Page = std::array<uint64_t, kPageIds / 64>;

  uint64_t &word_of(uint64_t id) {
    const uint64_t page = id / kPageIds;
    if (page >= pages_.size()) [[unlikely]]
      pages_.resize(page + 1 + pages_.size() / 2);
    std::unique_ptr<Page> &p = pages_[page];
    if (p == nullptr) [[unlikely]]
      p = std::make_unique<Page>(Page{});
    return (*p)[(id % kPageIds) >> 6];
  }

  std::vector<std::unique_ptr<Page>> pages_;
};

} // namespace prof::perfetto

#endif
