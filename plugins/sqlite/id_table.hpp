// IdTable: a value per prof id (string, track or stack id). Ids are dense
// from 1 in practice, so they index a vector; an id far beyond the others
// (a damaged report) goes to a hash map instead of growing the vector.
#ifndef PROF_PLUGINS_SQLITE_ID_TABLE_HPP
#define PROF_PLUGINS_SQLITE_ID_TABLE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace prof::sqlite {

/// `T{}` is "not set yet".
template <class T> class IdTable {
public:
  static constexpr uint32_t kDenseIds = 1u << 22;

  T get(uint32_t id) const {
    if (id < dense_.size()) return dense_[id];
    if (id < kDenseIds) return T{};
    auto found = sparse_.find(id);
    return found == sparse_.end() ? T{} : found->second;
  }
  void set(uint32_t id, T value) {
    if (id >= kDenseIds) {
      sparse_[id] = value;
      return;
    }
    if (id >= dense_.size()) dense_.resize(std::max<size_t>(id + 1, dense_.size() * 2));
    dense_[id] = value;
  }

private:
  std::vector<T> dense_;
  std::unordered_map<uint32_t, T> sparse_;
};

} // namespace prof::sqlite

#endif
