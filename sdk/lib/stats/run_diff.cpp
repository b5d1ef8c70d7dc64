#include <prof/stats/run_diff.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace prof::stats {
namespace {

/// The value at quantile `q` of sorted `values` (nearest rank).
double quantile(const std::vector<double> &sorted, double q) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

/// The median of `values`, the mean of the middle two for an even count.
double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t half = values.size() / 2;
  return values.size() % 2 == 1 ? values[half] : (values[half - 1] + values[half]) / 2;
}

/// An item's time and calls in each of its samples in one run.
struct Samples {
  std::vector<double> times, calls;
};

/// An item's samples in one run: on `steps`, each step of each rank the
/// item ran on that ran it (0 where the item did not run in it); without
/// steps, each rank's whole run.
Samples samples_of(const RunItem &item, const RunProfile &run, bool by_step,
                   const std::vector<uint64_t> &steps) {
  std::map<std::string, SampleValue> by_rank;
  for (const auto &[key, value] : item.samples) {
    by_rank[key.rank].calls += value.calls;
    by_rank[key.rank].time += value.time;
  }
  Samples out;
  const auto add = [&out](const SampleValue &value) {
    out.times.push_back(static_cast<double>(value.time));
    out.calls.push_back(static_cast<double>(value.calls));
  };
  if (!by_step) {
    for (const auto &[rank, value] : by_rank)
      add(value);
    return out;
  }
  for (const uint64_t step : steps) {
    const auto ran = run.steps.find(step);
    for (const auto &[rank, whole] : by_rank) {
      if (ran == run.steps.end() || !ran->second.count(rank)) continue;
      const auto found = item.samples.find({step, rank});
      add(found != item.samples.end() ? found->second : SampleValue{});
    }
  }
  return out;
}

/// The share of pairs (b, n) with n > b, ties counting half.
double share_greater(const std::vector<double> &base, const std::vector<double> &next) {
  if (base.empty() || next.empty()) return 0.5;
  double greater = 0;
  for (const double n : next)
    for (const double b : base)
      greater += n > b ? 1.0 : n == b ? 0.5 : 0.0;
  return greater / static_cast<double>(base.size() * next.size());
}

int verdict_order(Verdict verdict) { return static_cast<int>(verdict); }

} // namespace

const char *verdict_name(Verdict verdict) {
  switch (verdict) {
  case Verdict::Slower:
    return "slower";
  case Verdict::Faster:
    return "faster";
  case Verdict::New:
    return "new";
  case Verdict::Gone:
    return "gone";
  case Verdict::Same:
    break;
  }
  return "same";
}

Distribution distribution_of(std::vector<double> values, const std::vector<double> &calls) {
  Distribution d;
  d.samples = values.size();
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  d.median = median(values);
  d.p10 = quantile(values, 0.1);
  d.p90 = quantile(values, 0.9);
  std::vector<double> deviations;
  for (const double v : values)
    deviations.push_back(std::fabs(v - d.median));
  d.mad = median(std::move(deviations));
  d.calls = median(calls);
  return d;
}

RunDiff compare_runs(const RunProfile &base, const RunProfile &next, const DiffOptions &options) {
  RunDiff diff;
  for (const auto &[step, ranks] : base.steps)
    if (next.steps.count(step)) diff.steps.push_back(step);
  diff.by_step = !diff.steps.empty();

  // Each run's items with work in what is compared.
  struct Side {
    const RunItem *item = nullptr;
    std::vector<double> times;
    Distribution d;
  };
  const auto sides = [&](const RunProfile &run) {
    std::map<ItemKey, Side> out;
    for (const auto &[key, item] : run.items) {
      Samples samples = samples_of(item, run, diff.by_step, diff.steps);
      Distribution d = distribution_of(samples.times, samples.calls);
      for (size_t i = 0; i < samples.times.size(); ++i) {
        d.total_time += static_cast<uint64_t>(samples.times[i]);
        d.total_calls += static_cast<uint64_t>(samples.calls[i]);
      }
      if (d.total_calls > 0) out[key] = {&item, std::move(samples.times), d};
    }
    return out;
  };
  std::map<ItemKey, Side> in_base = sides(base), in_next = sides(next);

  const auto compare = [&](const ItemKey &key, const Side &b, const Side &n) {
    DiffRow row;
    row.key = key;
    row.base = b.d;
    row.next = n.d;
    row.delta = n.d.median - b.d.median;
    row.change = b.d.median > 0  ? row.delta / b.d.median
                 : row.delta > 0 ? std::numeric_limits<double>::infinity()
                                 : 0.0;
    row.noise = options.noise_factor * std::sqrt((b.d.mad * b.d.mad + n.d.mad * n.d.mad) / 2);
    const bool changed = std::fabs(row.delta) > row.noise &&
                         std::fabs(row.delta) >= static_cast<double>(options.min_change_ns) &&
                         std::fabs(row.change) >= options.threshold;
    row.verdict = !changed ? Verdict::Same : row.delta > 0 ? Verdict::Slower : Verdict::Faster;
    if (row.verdict != Verdict::Same && b.d.samples >= 3 && n.d.samples >= 3) {
      const double greater = share_greater(b.times, n.times);
      row.sure = row.verdict == Verdict::Slower ? greater : 1 - greater;
    }
    return row;
  };

  std::vector<const ItemKey *> gone, added;
  for (const auto &[key, side] : in_base) {
    const auto found = in_next.find(key);
    if (found == in_next.end()) {
      gone.push_back(&key);
      continue;
    }
    diff.rows.push_back(compare(key, side, found->second));
    ++diff.matched;
  }
  for (const auto &[key, side] : in_next)
    if (!in_base.count(key)) added.push_back(&key);

  // Renamed: one item gone and one new of the same kind at the same place.
  using Place = std::tuple<std::string, std::string, uint32_t>;
  std::map<Place, std::vector<const ItemKey *>> gone_at, added_at;
  for (const ItemKey *key : gone)
    if (const ItemPlace &p = in_base[*key].item->place; !p.parent.empty())
      gone_at[{key->kind, p.parent, p.position}].push_back(key);
  for (const ItemKey *key : added)
    if (const ItemPlace &p = in_next[*key].item->place; !p.parent.empty())
      added_at[{key->kind, p.parent, p.position}].push_back(key);
  std::set<const ItemKey *> renamed;
  for (const auto &[place, keys] : gone_at) {
    const auto other = added_at.find(place);
    if (keys.size() != 1 || other == added_at.end() || other->second.size() != 1) continue;
    const ItemKey &old_key = *keys.front(), &new_key = *other->second.front();
    DiffRow row = compare(new_key, in_base[old_key], in_next[new_key]);
    row.renamed_from = old_key.name;
    diff.rows.push_back(std::move(row));
    renamed.insert(&old_key);
    renamed.insert(&new_key);
    ++diff.matched;
  }
  for (const ItemKey *key : gone)
    if (!renamed.count(key)) {
      DiffRow row;
      row.key = *key;
      row.verdict = Verdict::Gone;
      row.base = in_base[*key].d;
      row.delta = -row.base.median;
      row.change = -1;
      diff.rows.push_back(std::move(row));
    }
  for (const ItemKey *key : added)
    if (!renamed.count(key)) {
      DiffRow row;
      row.key = *key;
      row.verdict = Verdict::New;
      row.next = in_next[*key].d;
      row.delta = row.next.median;
      row.change = std::numeric_limits<double>::infinity();
      diff.rows.push_back(std::move(row));
    }

  std::stable_sort(diff.rows.begin(), diff.rows.end(), [](const DiffRow &a, const DiffRow &b) {
    if (a.verdict != b.verdict) return verdict_order(a.verdict) < verdict_order(b.verdict);
    if (a.verdict == Verdict::Slower || a.verdict == Verdict::Faster)
      return std::fabs(a.change) > std::fabs(b.change);
    return std::max(a.base.total_time, a.next.total_time) >
           std::max(b.base.total_time, b.next.total_time);
  });
  return diff;
}

std::vector<const DiffRow *> regressions(const RunDiff &diff, double percent) {
  std::vector<const DiffRow *> rows;
  for (const DiffRow &row : diff.rows)
    if (row.verdict == Verdict::Slower && row.change * 100 >= percent) rows.push_back(&row);
  return rows;
}

} // namespace prof::stats
