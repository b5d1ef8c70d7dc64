// Merges the reports of several processes or ranks, possibly captured on
// different hosts, into one report on one timeline (`prof merge`).
#pragma once

#include "core/report/collective_clock.hpp"
#include "core/report/report_error.hpp"
#include "core/report/report_model.hpp"
#include "core/report/report_reader.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace prof::report {

/// An input that cannot be read at all; the message names it. Nothing has
/// been written when a merge throws it.
class MergeInputError : public ReportError {
public:
  using ReportError::ReportError;
};

/// One input as the merge takes it.
struct MergeInput {
  std::string path;
  /// Added to the names of its top-level, process and device tracks and its
  /// clock domains: "host1 rank 0".
  std::string label;
  /// Added to each of its timestamps: moves its session clock onto the
  /// output's through the two realtime anchors.
  int64_t shift_ns = 0;
  /// With the input's clock measured against rank 0's (prof/rank_clock.hpp):
  /// ns of shift gained per ns of the input's clock after `drift_origin`.
  double drift = 0;
  uint64_t drift_origin = 0;
  bool has_anchor = true; ///< false: the report has no realtime anchor, shift_ns is 0
  ReportStatus status = ReportStatus::complete;
  /// false: only its records are written, not its events (a part of the
  /// merge whose ids agree with the whole's, for a distributed analysis).
  bool write_events = true;
  uint64_t events = 0; ///< readable events
  uint64_t dropped = 0;
};

/// What a merge will write: the header of the output and its inputs, in order.
struct MergePlan {
  Header header;
  std::vector<MergeInput> inputs;
  /// The input whose session clock the output keeps: the one whose
  /// monotonic clock started earliest, so that no input's time goes below 0.
  size_t reference = 0;
  /// One line per cut or damaged input (where it stopped) and per input
  /// without a realtime anchor.
  std::vector<std::string> warnings;
  /// One line per input aligned with rank 0 by its clock measurements.
  std::vector<std::string> notes;
  /// Readable events of the inputs whose events are written.
  uint64_t events() const;
};

/// The shift of `input`'s time `ts` onto the output's clock.
int64_t shift_at(const MergeInput &input, uint64_t ts);
/// `input`'s time `ts` on the output's clock (never below 0).
uint64_t merged_time(const MergeInput &input, uint64_t ts);

/// One measurement of an input's clock against rank 0's (prof/rank_clock.hpp).
struct ClockEstimate {
  uint64_t at = 0;    ///< the input's clock
  int64_t offset = 0; ///< rank 0's clock minus the input's
  uint64_t error = 0;
};

/// What planning a merge reads of one input (a report, or a summary made of one).
struct MergeInputFacts {
  std::string path;
  Header header;
  std::vector<ClockEstimate> estimates; ///< in time order
  ReportStatus status = ReportStatus::complete;
  uint64_t events = 0; ///< readable events
  uint64_t dropped = 0;
  std::string damage; ///< where a cut or damaged input stopped; "" when whole
};

/// The facts of the report `reader` has open, read from `path`.
MergeInputFacts merge_input_facts(const ReportReader &reader, const std::string &path);

/// Input `input`'s collective operations on its own clock, from its first
/// event chunks until they hold `enough` operations (collective_times()).
using CollectiveTimesOf = std::function<CollectiveTimes(size_t input, size_t enough)>;

/// The plan of a merge of `inputs` (see plan_merge(paths)); `times` is
/// asked only when some input's clock is to be checked on its operations.
MergePlan plan_merge(std::vector<MergeInputFacts> inputs, const CollectiveTimesOf &times);

/// A track's name in the merge: an input's top-level (`has_parent` false),
/// process and device tracks say whose they are ("NAME [LABEL]").
std::string merged_track_name(const TrackRecord &track, bool has_parent, const std::string &label);

/// Reads the records of each report in `paths` (one at a time) and works
/// out the output's header and each input's label and clock shift: from
/// the realtime anchors, or, for a rank whose clock was measured against
/// rank 0's (the instants of prof/rank_clock.hpp) while rank 0's report is
/// among the inputs, from those measurements (offset, and drift between
/// the first and the last). Throws
/// MergeInputError when `paths` is empty or naming the first report that
/// cannot be read at all; a cut or damaged one is taken up to its damage.
MergePlan plan_merge(const std::vector<std::string> &paths);

/// Called after each event batch with events done and events in all.
using MergeProgress = std::function<void(uint64_t, uint64_t)>;

/// What write_merge wrote.
struct MergeResult {
  uint64_t events = 0;
  uint64_t dropped = 0;
};

/// Writes the merged report to `output`. Inputs are read one at a time and
/// one event chunk at a time, so memory holds one input's records, the
/// merged string table and one batch of events.
///
/// Ids: strings are deduplicated across inputs; tracks, stacks, clock
/// domains and drop rings get fresh ids; correlation and flow ids of input
/// i > 0 are tagged with i in bits 48..63 so that inputs never share a flow.
/// Timestamps move by each input's shift_ns.
///
/// Parts of one capture (the reports a split by process wrote: one host, one
/// clock anchor) share its PROF_TRACK_SHARED tracks, the device and the
/// machine: those are written once, from the first part that has them, and
/// an event on them that an earlier part had is not written again, so that
/// the merge counts it once.
///
/// The report is written under a temporary name in the same folder and
/// renamed to `output` only once whole; an existing `output` is refused
/// unless `force_overwrite`. Throws ReportError (the output cannot be
/// written) or MergeInputError (an input can no longer be read).
MergeResult write_merge(const MergePlan &plan, const std::string &output, bool force_overwrite,
                        const MergeProgress &progress = {});

} // namespace prof::report
