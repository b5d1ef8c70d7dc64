// Clocks aligned on collective operations, for the merge: the inputs no
// shared clock places (imported traces without a realtime anchor; hosts
// whose clocks disagree by more than their collective operations last) are
// moved onto the merged timeline by the operations they share with inputs
// already placed (collective_clock.hpp).
#pragma once

#include "core/report/report_merge.hpp"

#include <string>
#include <utility>
#include <vector>

namespace prof::report {

/// What a merge records in its header when it aligned inputs on their
/// collective operations: "reports=N error_ns=E" (the largest error), then
/// per input "aligned=LABEL,with=LABEL,offset_ns=N,error_ns=N,drift_us_per_s=X,operations=N"
/// (blanks in labels as '_'): values without blanks, for readers of
/// prof_session_info::plugins.
using AlignmentRecord = std::vector<std::pair<std::string, std::string>>;

/// The header record a merge keeps the alignment in (PluginRecord's name).
inline constexpr const char *kClockAlignmentRecord = "clock-alignment";

/// Aligns the inputs of `plan` (their `headers`, in order) that no clock
/// places: those without a realtime anchor, and those of another host than
/// the reference's whose anchors leave fewer than half their shared
/// operations overlapping where the operations' ends would leave nine in
/// ten. Each is fitted on the first placed input that shares half its
/// operations or more, else the one that shares the most. `measured[i]`:
/// input i was aligned with rank 0 by clock measurements, which it keeps.
/// Reads events (through `times`) only when some input is to be checked.
/// Adds a note for each input moved, a warning for each input without an
/// anchor that shares no operation with a placed one, and returns what it
/// did.
AlignmentRecord align_on_collectives(const std::vector<Header> &headers,
                                     const std::vector<bool> &measured, MergePlan &plan,
                                     const CollectiveTimesOf &times);

} // namespace prof::report
