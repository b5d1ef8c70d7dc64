// InternedSet: which interning ids the packet sequence has already defined.
// prof's ids are dense small integers, so a bitmap indexed by id is enough.
#ifndef PROF_PLUGINS_PERFETTO_INTERNED_SET_HPP
#define PROF_PLUGINS_PERFETTO_INTERNED_SET_HPP

#include <cstdint>
#include <vector>

namespace prof::perfetto {

class InternedSet {
public:
  /// True when `id` was not in the set (the caller then emits its entry).
  bool insert(uint64_t id) {
    const uint64_t word = id >> 6, bit = 1ull << (id & 63);
    if (word >= bits_.size()) bits_.resize(word + 1 + bits_.size() / 2);
    if (bits_[word] & bit) return false;
    bits_[word] |= bit;
    return true;
  }
  bool contains(uint64_t id) const {
    const uint64_t word = id >> 6;
    return word < bits_.size() && (bits_[word] >> (id & 63) & 1) != 0;
  }

private:
  std::vector<uint64_t> bits_;
};

} // namespace prof::perfetto

#endif
