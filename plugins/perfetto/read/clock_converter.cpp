#include "read/clock_converter.hpp"

#include "perfetto_fields.hpp"

#include <algorithm>
#include <deque>
#include <limits>

namespace prof::perfetto {
namespace {

/// Clocks of one snapshot taken: Perfetto's builtin clocks are a dozen.
constexpr size_t kMaxSnapshotClocks = 32;

/// `units` * `multiplier` as signed nanoseconds; nullopt when it does not fit.
std::optional<int64_t> to_ns(uint64_t units, uint64_t multiplier) {
  uint64_t ns = 0;
  if (__builtin_mul_overflow(units, multiplier, &ns) ||
      ns > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    return std::nullopt;
  return static_cast<int64_t>(ns);
}

} // namespace

void ClockConverter::add_snapshot(uint32_t sequence, const std::vector<SnapshotClock> &clocks,
                                  uint32_t primary) {
  if (primary != 0 && !converted_) trace_clock_ = primary;
  std::vector<std::pair<uint64_t, int64_t>> at; // clock key, its value in ns
  for (const SnapshotClock &c : clocks) {
    if (at.size() == kMaxSnapshotClocks) break; // pairs grow with the square
    const uint64_t k = key(sequence, c.id);
    Clock &clock = clocks_[k];
    if (c.unit_multiplier_ns != 0) clock.multiplier = c.unit_multiplier_ns;
    clock.incremental = c.incremental;
    clock.value = c.timestamp;
    const std::optional<int64_t> ns = to_ns(c.timestamp, clock.multiplier);
    if (!ns) continue;
    if (std::none_of(at.begin(), at.end(), [&](const auto &p) { return p.first == k; }))
      at.emplace_back(k, *ns);
  }
  for (const auto &[a, a_ns] : at) {
    for (const auto &[b, b_ns] : at) {
      if (a == b) continue;
      Pairs &pairs = pairs_[{a, b}];
      if (pairs.empty()) {
        neighbours_[a].push_back(b);
        paths_.clear();
      }
      const std::pair<int64_t, int64_t> entry{a_ns, b_ns};
      const auto where =
          std::upper_bound(pairs.begin(), pairs.end(), entry,
                           [](const auto &x, const auto &y) { return x.first < y.first; });
      if (where != pairs.begin() && *(where - 1) == entry) continue; // restated
      pairs.insert(where, entry);
    }
  }
  if (!realtime_) {
    const auto find = [&](uint64_t k) {
      return std::find_if(at.begin(), at.end(), [&](const auto &p) { return p.first == k; });
    };
    const auto wall = find(field::clock::kBuiltinRealtime);
    const auto trace = find(trace_clock_);
    if (wall != at.end() && trace != at.end() && wall != trace)
      realtime_ = std::pair{wall->second, trace->second};
  }
}

const std::vector<uint64_t> *ClockConverter::path_to_trace(uint64_t from) {
  if (const auto it = paths_.find(from); it != paths_.end())
    return it->second ? &*it->second : nullptr;
  // Breadth first: the shortest chain of snapshot pairs.
  std::unordered_map<uint64_t, uint64_t> came_from{{from, from}};
  std::deque<uint64_t> queue{from};
  std::optional<std::vector<uint64_t>> path;
  while (!queue.empty()) {
    const uint64_t at = queue.front();
    queue.pop_front();
    if (at == trace_clock_) {
      std::vector<uint64_t> steps{at};
      for (uint64_t k = at; k != from; k = came_from[k])
        steps.push_back(came_from[k]);
      std::reverse(steps.begin(), steps.end());
      path = std::move(steps);
      break;
    }
    if (const auto next = neighbours_.find(at); next != neighbours_.end())
      for (const uint64_t n : next->second)
        if (came_from.emplace(n, at).second) queue.push_back(n);
  }
  auto &cached = paths_[from] = std::move(path);
  return cached ? &*cached : nullptr;
}

std::optional<int64_t> ClockConverter::convert(uint64_t from, int64_t ns) {
  if (from == trace_clock_) return ns;
  const std::vector<uint64_t> *path = path_to_trace(from);
  if (path == nullptr) return std::nullopt;
  for (size_t i = 0; i + 1 < path->size(); ++i) {
    const Pairs &pairs = pairs_[{(*path)[i], (*path)[i + 1]}];
    // The snapshot at or before `ns` on this clock, else the first.
    auto at = std::upper_bound(pairs.begin(), pairs.end(), ns,
                               [](int64_t v, const auto &p) { return v < p.first; });
    if (at != pairs.begin()) --at;
    int64_t offset = 0;
    if (__builtin_sub_overflow(ns, at->first, &offset) ||
        __builtin_add_overflow(at->second, offset, &ns))
      return std::nullopt;
  }
  return ns;
}

std::optional<int64_t> ClockConverter::to_trace(uint32_t sequence, uint32_t clock_id,
                                                uint64_t timestamp, bool has_timestamp,
                                                bool *assumed) {
  if (assumed != nullptr) *assumed = false;
  converted_ = true;
  const uint64_t k = key(sequence, clock_id);
  const auto known = clocks_.find(k);
  if (known == clocks_.end()) {
    // A clock no snapshot names: the trace clock's own times, or (a
    // synthetic trace without snapshots) taken as them.
    if (clock_id >= 64 && clock_id <= 127) return std::nullopt; // a sequence clock never declared
    if (timestamp > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    if (k != trace_clock_ && assumed != nullptr) *assumed = true;
    return static_cast<int64_t>(timestamp);
  }
  Clock &clock = known->second;
  uint64_t units = timestamp;
  if (clock.incremental) {
    if (has_timestamp) clock.value += timestamp;
    units = clock.value;
  }
  const std::optional<int64_t> ns = to_ns(units, clock.multiplier);
  if (!ns) return std::nullopt;
  return convert(k, *ns);
}

} // namespace prof::perfetto
