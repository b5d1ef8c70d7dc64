#include "core/report/arg_sets.hpp"

#include <algorithm>

namespace prof::report {

void ArgSets::add(uint32_t id, Set args) {
  if (!entries_.empty() && id <= entries_.back().id) in_order_ = false;
  entries_.push_back({id, static_cast<uint32_t>(args.size()), args_.size()});
  args_.insert(args_.end(), args.begin(), args.end());
}

void ArgSets::seal() {
  if (!in_order_) {
    // By id; of one id the last added, as a later record replaces an earlier.
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const Entry &a, const Entry &b) { return a.id < b.id; });
    std::vector<Entry> kept;
    kept.reserve(entries_.size());
    for (size_t i = 0; i < entries_.size(); ++i)
      if (i + 1 == entries_.size() || entries_[i + 1].id != entries_[i].id)
        kept.push_back(entries_[i]);
    entries_ = std::move(kept);
    in_order_ = true;
  }
  entries_.shrink_to_fit();
  args_.shrink_to_fit();
}

void ArgSets::clear() {
  entries_ = {};
  args_ = {};
  in_order_ = true;
}

std::optional<ArgSets::Set> ArgSets::find(uint32_t id) const {
  if (entries_.empty() || id < entries_.front().id) return std::nullopt;
  // Ids are usually dense from the first: look where that puts it.
  const uint64_t guess = static_cast<uint64_t>(id) - entries_.front().id;
  if (guess < entries_.size() && entries_[guess].id == id) return set_of(entries_[guess]);
  const auto found = std::lower_bound(entries_.begin(), entries_.end(), id,
                                      [](const Entry &e, uint32_t key) { return e.id < key; });
  if (found == entries_.end() || found->id != id) return std::nullopt;
  return set_of(*found);
}

} // namespace prof::report
