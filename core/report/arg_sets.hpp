// A report's argument sets by id, kept compact: every set's arguments in one
// array beside a sorted index of 16 bytes a set (a std::map of vectors took
// about 150 bytes a set, most of a large report's memory in `prof stats`).
#pragma once

#include <prof/event.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace prof::report {

class ArgSets {
  struct Entry {
    uint32_t id = 0;
    uint32_t count = 0;
    uint64_t offset = 0; // into args_
  };

public:
  using Set = std::span<const prof_arg>;

  /// Adds set `id`; a later set of the same id replaces it.
  void add(uint32_t id, Set args);
  /// Puts sets added out of id order in place; call once every set is added.
  void seal();
  void clear();

  /// The set with `id`, nullopt when none.
  std::optional<Set> find(uint32_t id) const;
  size_t size() const { return entries_.size(); }
  /// The largest id, 0 when there is no set (once sealed).
  uint32_t last_id() const { return entries_.empty() ? 0 : entries_.back().id; }
  bool empty() const { return entries_.empty(); }

  /// (id, set) pairs in id order.
  class Iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::pair<uint32_t, Set>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    Iterator() = default;
    value_type operator*() const { return {at_->id, owner_->set_of(*at_)}; }
    Iterator &operator++() {
      ++at_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++at_;
      return before;
    }
    bool operator==(const Iterator &other) const { return at_ == other.at_; }

  private:
    friend class ArgSets;
    Iterator(const ArgSets *owner, const Entry *at) : owner_(owner), at_(at) {}
    const ArgSets *owner_ = nullptr;
    const Entry *at_ = nullptr;
  };
  Iterator begin() const { return {this, entries_.data()}; }
  Iterator end() const { return {this, entries_.data() + entries_.size()}; }

private:
  Set set_of(const Entry &e) const { return Set(args_.data() + e.offset, e.count); }

  std::vector<Entry> entries_; // by id once sealed
  std::vector<prof_arg> args_;
  bool in_order_ = true; // every add so far had a larger id than the one before
};

} // namespace prof::report
