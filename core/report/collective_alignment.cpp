#include "core/report/collective_alignment.hpp"

#include "core/report/collective_clock.hpp"
#include "core/report/report_error.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace prof::report {
namespace {

constexpr double kOverlapAligned = 0.9; ///< the operations that overlap once aligned
constexpr double kOverlapApart = 0.5;   ///< below it, the anchors put them apart
/// Operations read from each report to check hosts' clocks against each other.
constexpr size_t kOperationsToCheckHosts = 4096;

enum class Placement { placed, unanchored, to_check };

std::string milliseconds(int64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(ns) / 1e6);
  return text;
}

std::string drift_text(double drift) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", drift * 1e6);
  return text;
}

std::string without_blanks(std::string text) {
  std::replace(text.begin(), text.end(), ' ', '_');
  return text;
}

} // namespace

AlignmentRecord align_on_collectives(const std::vector<Header> &headers,
                                     const std::vector<bool> &measured, MergePlan &plan,
                                     const CollectiveTimesOf &collective_times_of) {
  AlignmentRecord record;
  const size_t count = headers.size();
  std::vector<Placement> placement(count, Placement::placed);
  bool any_clock = false, any_to_align = false;
  for (size_t i = 0; i < count; ++i)
    any_clock = any_clock || plan.inputs[i].has_anchor || measured[i];
  const std::string &reference_host = headers[plan.reference].host_name;
  for (size_t i = 0; i < count; ++i) {
    if (measured[i]) continue;
    if (!plan.inputs[i].has_anchor)
      placement[i] = Placement::unanchored;
    else if (!headers[i].host_name.empty() && !reference_host.empty() &&
             headers[i].host_name != reference_host)
      placement[i] = Placement::to_check;
    any_to_align = any_to_align || placement[i] != Placement::placed;
  }
  if (!any_clock) { // no input has a clock: rank 0's (else the first's) is the timeline's
    size_t reference = 0;
    for (size_t i = 0; i < count; ++i)
      if (headers[i].rank == "0") reference = i;
    plan.reference = reference;
    placement[reference] = Placement::placed;
  }
  if (!any_to_align || count < 2) return record;

  // Reports that have no clock are read whole (the fit follows a drift over
  // the run); for hosts' clocks that may disagree, the first operations tell.
  bool any_unanchored = false;
  for (const Placement p : placement)
    any_unanchored = any_unanchored || p == Placement::unanchored;
  const size_t enough = any_unanchored ? SIZE_MAX : kOperationsToCheckHosts;
  std::vector<CollectiveTimes> times(count);
  uint64_t largest_error = 0;
  for (size_t i = 0; i < count; ++i)
    times[i] = collective_times_of(i, enough);
  for (bool moved = true; moved;) {
    moved = false;
    for (size_t i = 0; i < count; ++i) {
      if (placement[i] == Placement::placed) continue;
      // The first placed input that shares half its operations or more,
      // else the one it shares the most with: one fit each at thousands of
      // ranks, not one per pair.
      std::optional<ClockFit> fit;
      size_t with = 0;
      const size_t enough_shared = (times[i].calls.size() + 1) / 2;
      for (size_t j = 0; j < count; ++j) {
        if (placement[j] != Placement::placed) continue;
        const std::optional<ClockFit> candidate = fit_clock(times[j], times[i]);
        if (candidate && (!fit || candidate->shared > fit->shared)) {
          fit = candidate;
          with = j;
        }
        if (fit && fit->shared >= std::max(enough_shared, kMinSharedOperations)) break;
      }
      if (!fit) continue;
      MergeInput &input = plan.inputs[i];
      const MergeInput &base = plan.inputs[with];
      const int64_t shift = fit->offset + shift_at(base, fit->origin + fit->offset);
      std::string why;
      if (placement[i] == Placement::to_check) {
        ClockFit anchors;
        anchors.offset = input.shift_ns - base.shift_ns;
        const double apart = overlapping_share(times[with], times[i], anchors);
        const double aligned = overlapping_share(times[with], times[i], *fit);
        placement[i] = Placement::placed;
        moved = true;
        if (!(apart < kOverlapApart && aligned >= kOverlapAligned)) continue; // its clock holds
        why = "its host's clock left " + std::to_string(static_cast<int>(apart * 100 + 0.5)) +
              " % of its collective operations overlapping " + base.label + "'s; moved " +
              milliseconds(shift - input.shift_ns) + " from its realtime anchor, ";
      } else {
        why = "no realtime clock anchor; ";
      }
      input.shift_ns = shift;
      input.drift = fit->drift + base.drift;
      input.drift_origin = fit->origin;
      placement[i] = Placement::placed;
      moved = true;
      plan.notes.push_back(input.label + ": " + why + "aligned with " + base.label + " on " +
                           std::to_string(fit->shared) + " shared collective operations: offset " +
                           milliseconds(fit->offset) + ", error at most " +
                           milliseconds(static_cast<int64_t>(fit->error)) + ", drift " +
                           drift_text(fit->drift) + " us/s");
      largest_error = std::max(largest_error, fit->error);
      record.emplace_back("aligned", without_blanks(input.label) +
                                         ",with=" + without_blanks(base.label) +
                                         ",offset_ns=" + std::to_string(fit->offset) +
                                         ",error_ns=" + std::to_string(fit->error) +
                                         ",drift_us_per_s=" + drift_text(fit->drift) +
                                         ",operations=" + std::to_string(fit->shared));
    }
  }
  if (!record.empty()) {
    record.insert(record.begin(), {{"reports", std::to_string(record.size())},
                                   {"error_ns", std::to_string(largest_error)}});
  }
  for (size_t i = 0; i < count; ++i)
    if (placement[i] == Placement::unanchored)
      plan.warnings.push_back(in_quotes(plan.inputs[i].path) +
                              " has no realtime clock anchor and shares no collective operation "
                              "with a report placed on the timeline: its times are merged "
                              "unaligned");
  return record;
}

} // namespace prof::report
