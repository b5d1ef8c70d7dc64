#include "core/report/collective_clock.hpp"

#include <prof/event.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace prof::report {
namespace {

/// One shared operation: the input's end and the reference's minus it.
struct EndPair {
  uint64_t input_end = 0;
  int64_t difference = 0;
};

int64_t median(std::vector<int64_t> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

uint64_t percentile_90(std::vector<uint64_t> values) {
  if (values.empty()) return 0;
  const size_t index = std::min(values.size() - 1, values.size() * 9 / 10);
  const auto at = values.begin() + static_cast<std::ptrdiff_t>(index);
  std::nth_element(values.begin(), at, values.end());
  return *at;
}

/// The 90th percentile of the pairs' distances from `fit`.
uint64_t fit_error(const std::vector<EndPair> &pairs, const ClockFit &fit) {
  std::vector<uint64_t> distances;
  distances.reserve(pairs.size());
  for (const EndPair &pair : pairs) {
    const int64_t residual = pair.difference - fit.at(pair.input_end);
    distances.push_back(static_cast<uint64_t>(residual < 0 ? -residual : residual));
  }
  return percentile_90(std::move(distances));
}

/// The median difference of the pairs in [first, last).
int64_t median_difference(const std::vector<EndPair> &pairs, size_t first, size_t last) {
  std::vector<int64_t> values;
  for (size_t i = first; i < last; ++i)
    values.push_back(pairs[i].difference);
  return median(std::move(values));
}

} // namespace

int64_t ClockFit::at(uint64_t ts) const {
  if (drift == 0) return offset;
  return offset + std::llround(drift * (static_cast<double>(ts) - static_cast<double>(origin)));
}

CollectiveTimes collective_times(const ReportReader &reader, size_t enough) {
  uint32_t communicator_key = 0, sequence_key = 0;
  const auto &strings = reader.strings();
  for (uint32_t id = 1; id < strings.size(); ++id) {
    if (strings[id] == "communicator") communicator_key = id;
    if (strings[id] == "sequence") sequence_key = id;
  }
  CollectiveTimes out;
  if (communicator_key == 0 || sequence_key == 0) return out;
  std::vector<prof_event> batch;
  for (const ReportReader::EventChunk &chunk : reader.event_chunks()) {
    if (out.calls.size() >= enough) break;
    if (!reader.decode_events(chunk, batch)) continue;
    const prof_event *events = batch.data();
    const size_t count = batch.size();
    for (size_t i = 0; i < count; ++i) {
      const prof_event &e = events[i];
      if (e.type != PROF_EVENT_SLICE || e.kind != PROF_CATEGORY_COMMUNICATION || e.args == 0)
        continue;
      const auto set = reader.args().find(static_cast<uint32_t>(e.args));
      if (!set) continue;
      uint32_t communicator = 0;
      std::optional<uint64_t> sequence;
      for (const prof_arg &arg : *set) {
        if (arg.key == communicator_key && arg.type == PROF_ARG_STRING)
          communicator = static_cast<uint32_t>(arg.value.s);
        if (arg.key == sequence_key && arg.type == PROF_ARG_UINT) sequence = arg.value.u;
        if (arg.key == sequence_key && arg.type == PROF_ARG_INT && arg.value.i >= 0)
          sequence = static_cast<uint64_t>(arg.value.i);
      }
      if (communicator == 0 || communicator >= strings.size() || !sequence) continue;
      CollectiveTimes::Call &call =
          out.calls[strings[communicator] + '\t' + std::to_string(*sequence)];
      call.begin = std::min(call.begin, e.ts);
      call.end = std::max(call.end, e.ts + e.duration);
    }
  }
  return out;
}

std::optional<ClockFit> fit_clock(const CollectiveTimes &reference, const CollectiveTimes &input) {
  std::vector<EndPair> pairs;
  for (const auto &[key, call] : input.calls)
    if (auto found = reference.calls.find(key); found != reference.calls.end())
      pairs.push_back({call.end, static_cast<int64_t>(found->second.end - call.end)});
  if (pairs.size() < kMinSharedOperations) return std::nullopt;
  std::sort(pairs.begin(), pairs.end(),
            [](const EndPair &a, const EndPair &b) { return a.input_end < b.input_end; });

  ClockFit fit;
  fit.shared = pairs.size();
  fit.origin = pairs.front().input_end;
  std::vector<int64_t> differences;
  for (const EndPair &pair : pairs)
    differences.push_back(pair.difference);
  fit.offset = median(differences);
  fit.error = fit_error(pairs, fit);

  // A drift: a line through the medians of the first and the last third of
  // the run that brings the ends at least twice as close as one offset does.
  if (pairs.size() >= 9) {
    const size_t third = pairs.size() / 3;
    const int64_t early = median_difference(pairs, 0, third);
    const int64_t late = median_difference(pairs, pairs.size() - third, pairs.size());
    const uint64_t early_at = pairs[third / 2].input_end;
    const uint64_t late_at = pairs[pairs.size() - third + third / 2].input_end;
    if (late_at > early_at && late != early) {
      ClockFit drifting = fit;
      drifting.drift = static_cast<double>(late - early) / static_cast<double>(late_at - early_at);
      std::vector<int64_t> at_origin;
      for (const EndPair &pair : pairs)
        at_origin.push_back(
            pair.difference -
            std::llround(drifting.drift * static_cast<double>(pair.input_end - drifting.origin)));
      drifting.offset = median(std::move(at_origin));
      drifting.error = fit_error(pairs, drifting);
      if (2 * drifting.error < fit.error) fit = drifting;
    }
  }
  return fit;
}

double overlapping_share(const CollectiveTimes &reference, const CollectiveTimes &input,
                         const ClockFit &fit) {
  size_t shared = 0, overlapping = 0;
  for (const auto &[key, call] : input.calls) {
    const auto found = reference.calls.find(key);
    if (found == reference.calls.end()) continue;
    ++shared;
    const int64_t begin = static_cast<int64_t>(call.begin) + fit.at(call.begin);
    const int64_t end = static_cast<int64_t>(call.end) + fit.at(call.end);
    if (begin <= static_cast<int64_t>(found->second.end) &&
        static_cast<int64_t>(found->second.begin) <= end)
      ++overlapping;
  }
  return shared == 0 ? 0 : static_cast<double>(overlapping) / static_cast<double>(shared);
}

} // namespace prof::report
