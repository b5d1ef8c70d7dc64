// `prof diff`: two runs (RunProfile) compared item by item, each item's
// time as a distribution over its samples (steps of ranks), with a noise
// floor from that item's own spread, a verdict per item and for the whole.
//
// The rule (docs/diff.md): an item's change is the difference of its
// median time per sample, NEW less BASE. It is `slower` or `faster` when
// the change is at least `threshold` of BASE's median, at least
// `min_change_ns`, and more than `noise_factor` times the pooled median
// absolute deviation sqrt((MAD_base^2 + MAD_new^2) / 2); else `same`.
#pragma once

#include <prof/stats/run_profile.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace prof::stats {

struct DiffOptions {
  double threshold = 0.05;       ///< smallest change, a fraction of BASE's median
  double noise_factor = 3.0;     ///< k: a change must pass k times the pooled MAD
  uint64_t min_change_ns = 1000; ///< smallest change of the median per sample
};

enum class Verdict : uint8_t { Slower, Faster, New, Gone, Same };
/// "slower", "faster", "new", "gone", "same".
const char *verdict_name(Verdict verdict);

/// An item's time over its samples in one run (all 0 when it has none).
struct Distribution {
  size_t samples = 0;
  double median = 0, p10 = 0, p90 = 0; ///< ns per sample
  double mad = 0;                      ///< median absolute deviation, ns
  double calls = 0;                    ///< median calls per sample
  uint64_t total_calls = 0, total_time = 0;
  /// Mean time per call, ns (0 without calls).
  double per_call() const {
    return total_calls == 0 ? 0 : static_cast<double>(total_time) / total_calls;
  }
};

/// Nearest-rank statistics of `values` (sorted here).
Distribution distribution_of(std::vector<double> values, const std::vector<double> &calls);

struct DiffRow {
  ItemKey key;              ///< NEW's name for a renamed item
  std::string renamed_from; ///< BASE's name when it was matched by its place, else ""
  Verdict verdict = Verdict::Same;
  Distribution base, next;
  double change = 0; ///< (next.median - base.median) / base.median; +inf from 0
  double delta = 0;  ///< next.median - base.median, ns
  double noise = 0;  ///< noise_factor times the pooled MAD, ns
  /// How sure a slower or faster row is: the share of (BASE, NEW) sample
  /// pairs ordered that way (ties count half); -1 for other rows, and when
  /// a side has fewer than 3 samples.
  double sure = -1;
};

struct RunDiff {
  bool by_step = false;        ///< compared on the steps both runs have
  std::vector<uint64_t> steps; ///< those steps
  size_t matched = 0;          ///< items found in both (renamed ones too)
  /// Slower first (the largest change first), then faster, new, gone, same.
  std::vector<DiffRow> rows;
};

/// Compares NEW (`next`) to `base`. On the steps both have, when they share
/// any; else on each rank's whole run.
RunDiff compare_runs(const RunProfile &base, const RunProfile &next, const DiffOptions &options);

/// The slower rows whose change is at least `percent`.
std::vector<const DiffRow *> regressions(const RunDiff &diff, double percent);

} // namespace prof::stats
