#include <prof/stats/busy_timeline.hpp>

#include <algorithm>

namespace prof::stats {
namespace {

// Appends `p` to sorted periods `out`, joining it with the last one when
// they overlap or are at most `join_gap` apart.
void append(std::vector<Period> &out, const Period &p, uint64_t join_gap) {
  if (!out.empty() && (p.begin <= out.back().end || p.begin - out.back().end <= join_gap)) {
    out.back().end = std::max(out.back().end, p.end);
    return;
  }
  out.push_back(p);
}

} // namespace

void BusyTimeline::fold() {
  if (pending_.empty()) return;
  std::sort(pending_.begin(), pending_.end(),
            [](const Period &a, const Period &b) { return a.begin < b.begin; });
  std::vector<Period> merged;
  merged.reserve(periods_.size() + pending_.size());
  // A merge of two lists sorted by begin, coalescing as it goes.
  size_t i = 0, j = 0;
  while (i < periods_.size() || j < pending_.size()) {
    const bool take_old =
        j == pending_.size() || (i < periods_.size() && periods_[i].begin <= pending_[j].begin);
    append(merged, take_old ? periods_[i++] : pending_[j++], join_gap_);
  }
  merged.shrink_to_fit();
  periods_.swap(merged);
  pending_.clear();
}

void BusyTimeline::merge(BusyTimeline &other) {
  other.fold();
  for (const Period &p : other.periods_) {
    pending_.push_back(p);
    if (pending_.size() >= kPendingLimit) fold();
  }
  other.periods_.clear();
  other.periods_.shrink_to_fit();
}

const std::vector<Period> &BusyTimeline::periods() {
  fold();
  return periods_;
}

uint64_t BusyTimeline::busy() {
  uint64_t total = 0;
  for (const Period &p : periods())
    total += p.end - p.begin;
  return total;
}

std::vector<Period> BusyTimeline::gaps(uint64_t threshold) {
  std::vector<Period> out;
  const auto &busy = periods();
  for (size_t i = 1; i < busy.size(); ++i)
    if (busy[i].begin - busy[i - 1].end > threshold)
      out.push_back({busy[i - 1].end, busy[i].begin});
  return out;
}

std::vector<WindowBusy> BusyTimeline::utilization(uint64_t origin, uint64_t until,
                                                  uint64_t interval) {
  std::vector<WindowBusy> windows;
  if (interval == 0 || until <= origin) return windows;
  const uint64_t count = (until - origin + interval - 1) / interval;
  windows.reserve(static_cast<size_t>(count));
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t begin = origin + k * interval;
    windows.push_back({begin, std::min(until, begin + interval), 0});
  }
  for (const Period &p : periods()) {
    const uint64_t begin = std::max(p.begin, origin);
    const uint64_t end = std::min(p.end, until);
    // Spread the period over the windows it covers.
    for (uint64_t at = begin; at < end;) {
      WindowBusy &w = windows[static_cast<size_t>((at - origin) / interval)];
      const uint64_t stop = std::min(end, w.end);
      w.busy += stop - at;
      at = stop;
    }
  }
  return windows;
}

} // namespace prof::stats
