#include <prof/stats/rank_outliers.hpp>

#include "rank_identity.hpp"

#include <prof/stats/natural_order.hpp>
#include <prof/stats/process_label.hpp>
#include <prof/stats/time_format.hpp>
#include <prof/stats/value_format.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace prof::stats {
namespace {

/// Past the median by more than this many robust standard deviations
/// (1.4826 x the median absolute deviation) is an outlier.
constexpr double kSpreads = 6.0;
/// Floors under that: ordinary jitter of a fraction of a millisecond, or a
/// few percent of the typical value, never counts.
constexpr double kTimeFloorNs = 1e6;
constexpr double kRelativeFloor = 0.05;
constexpr double kMemoryFloorBytes = 16.0 * 1024 * 1024;
/// Ranks that differ in items (steps, operations) must do so in at least
/// this many and this share of those they took part in.
constexpr uint64_t kMinItems = 2;
constexpr double kMinItemShare = 0.05;
/// A node's ranks are one finding when this share of them, two or more, differ.
constexpr double kNodeShare = 0.75;
constexpr size_t kRanksNamed = 8; ///< ranks apart named in one finding's text

constexpr size_t kMeasures = static_cast<size_t>(OutlierMeasure::memory_peak) + 1;

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

/// 1.4826 x the median absolute deviation from `center`.
double robust_spread(const std::vector<double> &values, double center) {
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (const double v : values)
    deviations.push_back(std::fabs(v - center));
  return 1.4826 * median(std::move(deviations));
}

/// A rank that differs in one measure (and name, for communication).
struct Flagged {
  size_t rank;
  double excess;
  uint64_t items = 0, of_items = 0;
};

/// What one measure found, before grouping by node.
struct MeasureResult {
  OutlierMeasure measure;
  std::string what;
  double typical = 0, threshold = 0;
  std::vector<Flagged> flagged;
};

class OutlierFinder {
public:
  OutlierFinder(const StatsAggregator &aggregator, const ExportHost &host)
      : aggregator_(aggregator), host_(host) {}

  /// Every measure, or (`lateness_only`) arrival lateness alone.
  RankOutliers find(bool lateness_only = false);

private:
  size_t rank_of(prof_track_id process);
  void collect_ranks();
  void step_times();
  void lateness();
  void communication();
  void totals();
  /// Ranks whose value passes the median by the threshold (values[i]: rank
  /// i's). A measure of the whole rank (`what` empty) also gives the typical
  /// value and spread the typical rank is chosen by.
  MeasureResult compare_totals(OutlierMeasure measure, const std::string &what,
                               const std::vector<std::optional<double>> &values, double floor);
  /// Per-item deviations: for each rank, its excess over each item's median.
  void compare_items(OutlierMeasure measure,
                     const std::vector<std::vector<std::pair<size_t, double>>> &items,
                     const std::vector<std::string> &item_names, double floor);
  void group(const MeasureResult &result);
  void choose_typical();
  std::string who(const std::vector<size_t> &ranks, const std::string &node) const;

  const StatsAggregator &aggregator_;
  const ExportHost &host_;
  RankOutliers out_;
  std::unordered_map<prof_track_id, size_t> by_process_;
  std::map<std::string, size_t> node_sizes_;
  std::vector<MeasureResult> results_;
  std::vector<double> typical_values_ = std::vector<double>(kMeasures, 0);
  std::vector<double> spreads_ = std::vector<double>(kMeasures, 0);
};

size_t OutlierFinder::rank_of(prof_track_id process) {
  const auto found = by_process_.find(process);
  return found == by_process_.end() ? SIZE_MAX : found->second;
}

void OutlierFinder::collect_ranks() {
  std::vector<prof_track_id> processes;
  const auto add = [&](prof_track_id process) {
    if (process == 0 || by_process_.count(process)) return;
    const prof_track_desc *desc = host_.track(process);
    if (desc == nullptr || desc->kind != PROF_TRACK_PROCESS) return;
    by_process_.emplace(process, 0);
    processes.push_back(process);
  };
  for (const auto &[key, span] : aggregator_.steps())
    add(key.process);
  for (const CollectiveCall &call : aggregator_.collective_calls())
    add(call.process);
  for (const auto &[key, stats] : aggregator_.communication())
    add(key.process);
  for (const auto &[owner, totals] : aggregator_.process_totals())
    add(owner);
  for (const prof_track_id process : processes) {
    const prof_track_desc *desc = host_.track(process);
    const std::string name = desc->name ? desc->name : "";
    const RankIdentity identity = rank_identity(name);
    RankEntry entry;
    entry.process = process;
    entry.rank = identity.rank;
    entry.node = identity.node;
    entry.label = identity.rank >= 0 ? "rank " + std::to_string(identity.rank)
                                     : process_label(host_, process);
    entry.values.assign(kMeasures, std::nullopt);
    out_.ranks.push_back(std::move(entry));
  }
  std::sort(out_.ranks.begin(), out_.ranks.end(), [](const RankEntry &a, const RankEntry &b) {
    if ((a.rank < 0) != (b.rank < 0)) return a.rank >= 0;
    if (a.rank != b.rank) return a.rank < b.rank;
    return natural_less(a.label, b.label);
  });
  for (size_t i = 0; i < out_.ranks.size(); ++i) {
    by_process_[out_.ranks[i].process] = i;
    if (!out_.ranks[i].node.empty()) ++node_sizes_[out_.ranks[i].node];
  }
}

MeasureResult OutlierFinder::compare_totals(OutlierMeasure measure, const std::string &what,
                                            const std::vector<std::optional<double>> &values,
                                            double floor) {
  std::vector<double> present;
  for (const auto &v : values)
    if (v) present.push_back(*v);
  if (present.size() < 3) return {measure, what, 0, 0, {}};
  MeasureResult result{measure, what, median(present), 0, {}};
  const double spread = robust_spread(present, result.typical);
  result.threshold = std::max({kSpreads * spread, floor, kRelativeFloor * result.typical});
  if (what.empty()) {
    typical_values_[static_cast<size_t>(measure)] = result.typical;
    spreads_[static_cast<size_t>(measure)] = std::max(spread, floor / kSpreads);
  }
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i] && *values[i] - result.typical > result.threshold)
      result.flagged.push_back({i, *values[i] - result.typical});
  return result;
}

void OutlierFinder::compare_items(OutlierMeasure measure,
                                  const std::vector<std::vector<std::pair<size_t, double>>> &items,
                                  const std::vector<std::string> &item_names, double floor) {
  // Each rank's deviation from each item's median.
  std::vector<std::vector<std::pair<size_t, double>>> by_rank(out_.ranks.size());
  std::vector<double> all, typicals;
  for (size_t item = 0; item < items.size(); ++item) {
    if (items[item].size() < 3) continue;
    std::vector<double> values;
    for (const auto &[rank, value] : items[item])
      values.push_back(value);
    const double center = median(values);
    typicals.push_back(measure == OutlierMeasure::lateness
                           ? center - *std::min_element(values.begin(), values.end())
                           : center);
    for (const auto &[rank, value] : items[item]) {
      by_rank[rank].emplace_back(item, value - center);
      all.push_back(value - center);
    }
  }
  if (all.empty()) return;
  const double spread = robust_spread(all, median(all));
  const double threshold = std::max(kSpreads * spread, floor);
  typical_values_[static_cast<size_t>(measure)] = 0;
  spreads_[static_cast<size_t>(measure)] = std::max(spread, floor / kSpreads);
  // Per name of item (for lateness, the operation's name): who differed.
  std::map<std::string, MeasureResult> by_name;
  for (size_t rank = 0; rank < by_rank.size(); ++rank) {
    if (by_rank[rank].empty()) continue;
    std::vector<double> deviations;
    std::map<std::string, std::pair<std::vector<double>, uint64_t>> over; // excesses, of items
    for (const auto &[item, deviation] : by_rank[rank]) {
      deviations.push_back(deviation);
      auto &[excesses, of_items] = over[item_names[item]];
      ++of_items;
      if (deviation > threshold) excesses.push_back(deviation);
    }
    out_.ranks[rank].values[static_cast<size_t>(measure)] = median(deviations);
    for (auto &[name, entry] : over) {
      auto &[excesses, of_items] = entry;
      if (excesses.size() < kMinItems ||
          static_cast<double>(excesses.size()) < kMinItemShare * static_cast<double>(of_items))
        continue;
      MeasureResult &result = by_name[name];
      result.flagged.push_back({rank, median(excesses), excesses.size(), of_items});
    }
  }
  const double typical = median(typicals);
  for (auto &[name, result] : by_name) {
    result.measure = measure;
    result.what = name;
    result.typical = typical;
    result.threshold = threshold;
    results_.push_back(std::move(result));
  }
}

void OutlierFinder::step_times() {
  std::map<uint64_t, size_t> index;
  std::vector<std::vector<std::pair<size_t, double>>> items;
  std::vector<std::vector<double>> per_rank(out_.ranks.size());
  for (const auto &[key, span] : aggregator_.steps()) {
    const size_t rank = rank_of(key.process);
    if (rank == SIZE_MAX) continue;
    auto [at, added] = index.emplace(key.step, items.size());
    if (added) items.emplace_back();
    items[at->second].emplace_back(rank, static_cast<double>(span.length()));
  }
  std::vector<double> medians;
  for (const auto &item : items)
    for (const auto &[rank, ns] : item)
      medians.push_back(ns);
  const double floor = std::max(kTimeFloorNs, kRelativeFloor * median(medians));
  compare_items(OutlierMeasure::step_time, items, std::vector<std::string>(items.size(), "steps"),
                floor);
}

void OutlierFinder::lateness() {
  // Operations: (communicator, sequence) -> each rank's first arrival.
  std::map<std::pair<std::string, uint64_t>, std::map<size_t, const CollectiveCall *>> operations;
  std::unordered_map<prof_string_id, std::string> texts;
  const auto text = [&](prof_string_id id) -> const std::string & {
    auto found = texts.find(id);
    if (found == texts.end()) found = texts.emplace(id, std::string(host_.string(id))).first;
    return found->second;
  };
  for (const CollectiveCall &call : aggregator_.collective_calls()) {
    const size_t rank = rank_of(call.process);
    if (rank == SIZE_MAX) continue;
    auto &calls = operations[{text(call.communicator), call.sequence}];
    auto [at, added] = calls.emplace(rank, &call);
    if (!added && call.begin < at->second->begin) at->second = &call;
  }
  std::vector<std::vector<std::pair<size_t, double>>> items;
  std::vector<std::string> names;
  for (const auto &[key, calls] : operations) {
    if (calls.size() < 3) continue; // point-to-point: communication() compares their time
    std::vector<std::pair<size_t, double>> arrivals;
    for (const auto &[rank, call] : calls)
      arrivals.emplace_back(rank, static_cast<double>(call->begin));
    items.push_back(std::move(arrivals));
    names.push_back(text(calls.begin()->second->name));
  }
  compare_items(OutlierMeasure::lateness, items, names, kTimeFloorNs);
}

void OutlierFinder::communication() {
  std::map<std::string, std::vector<std::optional<double>>> by_name;
  std::vector<std::optional<double>> all(out_.ranks.size());
  for (const auto &[key, stats] : aggregator_.communication()) {
    const size_t rank = rank_of(key.process);
    // Calls on no communicator are set-up, teardown and waits (MPI_Init),
    // whose time differs between ranks for reasons of no interest.
    if (rank == SIZE_MAX || key.communicator == 0) continue;
    auto &values = by_name[std::string(host_.string(key.name))];
    values.resize(out_.ranks.size());
    const auto ns = static_cast<double>(stats.durations.total);
    values[rank] = values[rank].value_or(0) + ns;
    all[rank] = all[rank].value_or(0) + ns;
  }
  for (size_t i = 0; i < all.size(); ++i)
    out_.ranks[i].values[static_cast<size_t>(OutlierMeasure::communication)] = all[i];
  compare_totals(OutlierMeasure::communication, "", all, kTimeFloorNs); // the typical only
  for (const auto &[name, values] : by_name)
    results_.push_back(compare_totals(OutlierMeasure::communication, name, values, kTimeFloorNs));
}

void OutlierFinder::totals() {
  const size_t n = out_.ranks.size();
  std::vector<std::optional<double>> operators(n), kernels(n), memory(n);
  // Totals of a track of no process belong to the rank whose merge label it has.
  std::map<std::string, size_t> by_label;
  for (size_t i = 0; i < n; ++i) {
    const prof_track_desc *desc = host_.track(out_.ranks[i].process);
    if (const std::string_view label = merge_label(desc->name ? desc->name : ""); !label.empty())
      by_label.emplace(std::string(label), i);
  }
  for (const auto &[owner, totals] : aggregator_.process_totals()) {
    size_t rank = rank_of(owner);
    if (rank == SIZE_MAX) {
      const prof_track_desc *desc = host_.track(owner);
      const auto found =
          by_label.find(std::string(merge_label(desc && desc->name ? desc->name : "")));
      if (found != by_label.end())
        rank = found->second;
      else if (n == 1)
        rank = 0;
      else
        continue;
    }
    if (totals.operators > 0)
      operators[rank] = operators[rank].value_or(0) + static_cast<double>(totals.operator_ns);
    if (totals.kernels > 0)
      kernels[rank] = kernels[rank].value_or(0) + static_cast<double>(totals.kernel_ns);
    const double peak = std::max(totals.device_memory_peak, static_cast<double>(totals.heap_peak));
    if (peak > 0) memory[rank] = std::max(memory[rank].value_or(0), peak);
  }
  const auto compare = [&](OutlierMeasure measure, const std::vector<std::optional<double>> &values,
                           double floor) {
    for (size_t i = 0; i < n; ++i)
      out_.ranks[i].values[static_cast<size_t>(measure)] = values[i];
    results_.push_back(compare_totals(measure, "", values, floor));
  };
  compare(OutlierMeasure::operator_time, operators, kTimeFloorNs);
  compare(OutlierMeasure::kernel_time, kernels, kTimeFloorNs);
  compare(OutlierMeasure::memory_peak, memory, kMemoryFloorBytes);
}

std::string OutlierFinder::who(const std::vector<size_t> &ranks, const std::string &node) const {
  std::vector<int> numbers;
  for (const size_t i : ranks)
    numbers.push_back(out_.ranks[i].rank);
  const bool numbered =
      std::all_of(numbers.begin(), numbers.end(), [](int rank) { return rank >= 0; });
  if (!node.empty())
    return node + ": " +
           (numbered ? (ranks.size() > 1 ? "ranks " : "rank ") + rank_runs(numbers)
                     : std::to_string(ranks.size()) + " processes");
  std::string text;
  for (size_t k = 0; k < ranks.size() && k < kRanksNamed; ++k) {
    const RankEntry &entry = out_.ranks[ranks[k]];
    text +=
        (k > 0 ? ", " : "") + (k > 0 && entry.rank >= 0 ? std::to_string(entry.rank) : entry.label);
    if (!entry.node.empty()) text += " (" + entry.node + ")";
  }
  if (ranks.size() > kRanksNamed)
    text += " and " + std::to_string(ranks.size() - kRanksNamed) + " more";
  if (ranks.size() > 1 && text.starts_with("rank ")) text.insert(4, "s");
  return text;
}

std::string amount(OutlierMeasure measure, double value) {
  if (measure == OutlierMeasure::memory_peak) return format_bytes(value);
  return format_duration(static_cast<uint64_t>(std::llround(std::max(value, 0.0))));
}

std::string finding_text(const OutlierFinding &f, const std::string &who) {
  const std::string excess = amount(f.measure, f.excess);
  const std::string typical = amount(f.measure, f.typical);
  const std::string in_items = std::to_string(f.items) + " of " + std::to_string(f.of_items);
  switch (f.measure) {
  case OutlierMeasure::step_time:
    return who + " slower in " + in_items + " steps by " + excess + " median (typical step " +
           typical + ")";
  case OutlierMeasure::lateness:
    return who + " late to " + in_items + " " + f.what + " by " + excess + " median";
  case OutlierMeasure::communication:
    return who + " " + excess + " more in " + f.what + " than the typical rank (" + typical + ")";
  case OutlierMeasure::operator_time:
    return who + " " + excess + " more in operators than the typical rank (" + typical + ")";
  case OutlierMeasure::kernel_time:
    return who + " " + excess + " more in kernels than the typical rank (" + typical + ")";
  case OutlierMeasure::memory_peak:
    return who + " memory peak " + excess + " above the typical rank's (" + typical + ")";
  }
  return who;
}

void OutlierFinder::group(const MeasureResult &result) {
  if (result.flagged.empty()) return;
  std::map<std::string, std::vector<const Flagged *>> by_node;
  for (const Flagged &f : result.flagged)
    by_node[out_.ranks[f.rank].node].push_back(&f);
  std::vector<const Flagged *> apart;
  std::vector<OutlierFinding> findings;
  const auto finding = [&](const std::vector<const Flagged *> &members, const std::string &node) {
    OutlierFinding f;
    f.measure = result.measure;
    f.node = node;
    f.what = result.what;
    f.typical = result.typical;
    f.threshold = result.threshold;
    std::vector<double> excesses, items;
    for (const Flagged *m : members) {
      f.ranks.push_back(m->rank);
      excesses.push_back(m->excess);
      items.push_back(static_cast<double>(m->items));
      f.of_items = std::max(f.of_items, m->of_items);
    }
    std::sort(f.ranks.begin(), f.ranks.end());
    f.excess = median(excesses);
    f.items = static_cast<uint64_t>(median(items));
    f.text = finding_text(f, who(f.ranks, node));
    findings.push_back(std::move(f));
  };
  for (const auto &[node, members] : by_node) {
    const auto size = node.empty() ? 0 : node_sizes_.at(node);
    if (members.size() >= 2 &&
        static_cast<double>(members.size()) >= kNodeShare * static_cast<double>(size))
      finding(members, node);
    else
      apart.insert(apart.end(), members.begin(), members.end());
  }
  if (!apart.empty()) finding(apart, "");
  std::stable_sort(
      findings.begin(), findings.end(),
      [](const OutlierFinding &a, const OutlierFinding &b) { return a.excess > b.excess; });
  for (OutlierFinding &f : findings)
    out_.findings.push_back(std::move(f));
}

void OutlierFinder::choose_typical() {
  if (out_.ranks.size() < 3) return;
  std::vector<bool> named(out_.ranks.size(), false);
  for (const OutlierFinding &f : out_.findings)
    for (const size_t rank : f.ranks)
      named[rank] = true;
  double best = 0;
  for (size_t i = 0; i < out_.ranks.size(); ++i) {
    if (named[i]) continue;
    double distance = 0;
    for (size_t m = 0; m < kMeasures; ++m)
      if (const auto &value = out_.ranks[i].values[m]; value && spreads_[m] > 0)
        distance += std::fabs(*value - typical_values_[m]) / spreads_[m];
    if (!out_.typical || distance < best) {
      out_.typical = i;
      best = distance;
    }
  }
}

RankOutliers OutlierFinder::find(bool lateness_only) {
  collect_ranks();
  if (out_.ranks.size() < 3) return std::move(out_);
  lateness();
  if (!lateness_only) {
    step_times();
    communication();
    totals();
  }
  std::stable_sort(
      results_.begin(), results_.end(),
      [](const MeasureResult &a, const MeasureResult &b) { return a.measure < b.measure; });
  for (const MeasureResult &result : results_)
    group(result);
  choose_typical();
  return std::move(out_);
}

} // namespace

const char *measure_name(OutlierMeasure measure) {
  switch (measure) {
  case OutlierMeasure::step_time:
    return "step time";
  case OutlierMeasure::lateness:
    return "lateness";
  case OutlierMeasure::communication:
    return "communication";
  case OutlierMeasure::operator_time:
    return "operator time";
  case OutlierMeasure::kernel_time:
    return "kernel time";
  case OutlierMeasure::memory_peak:
    return "memory peak";
  }
  return "";
}

std::vector<size_t> RankOutliers::outlier_ranks() const {
  std::vector<size_t> named;
  for (const OutlierFinding &f : findings)
    named.insert(named.end(), f.ranks.begin(), f.ranks.end());
  std::sort(named.begin(), named.end());
  named.erase(std::unique(named.begin(), named.end()), named.end());
  return named;
}

void rank_outliers_scope(StatsScope &scope) {
  scope.steps = scope.collectives = scope.communication = scope.process_totals = true;
}

RankOutliers find_rank_outliers(const StatsAggregator &aggregator, const ExportHost &host) {
  return OutlierFinder(aggregator, host).find();
}

RankOutliers find_late_ranks(const StatsAggregator &aggregator, const ExportHost &host) {
  return OutlierFinder(aggregator, host).find(true);
}

std::string rank_runs(const std::vector<int> &ranks) {
  std::vector<int> sorted = ranks;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::string text;
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1)
      ++j;
    if (!text.empty()) text += ", ";
    text += std::to_string(sorted[i]);
    if (j > i) text += (j == i + 1 ? ", " : "-") + std::to_string(sorted[j]);
    i = j + 1;
  }
  return text;
}

} // namespace prof::stats
