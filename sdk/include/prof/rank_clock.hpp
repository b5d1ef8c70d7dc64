// How a source tells `prof merge` how one rank's session clock stands
// against rank 0's: an instant on the process's track, named
// kClockOffsetName, at the time (the process's own clock) it was measured,
// with two arguments. Merge aligns each rank's report with rank 0's by them
// (offset, and drift when there are two or more), rather than by the hosts'
// realtime clocks.
#ifndef PROF_RANK_CLOCK_HPP
#define PROF_RANK_CLOCK_HPP

namespace prof {

/// The instant's name.
inline constexpr const char *kClockOffsetName = "clock offset to rank 0";
/// PROF_ARG_INT: rank 0's session clock minus this process's, in ns.
inline constexpr const char *kClockOffsetArg = "offset_ns";
/// PROF_ARG_UINT: the measurement's error bound, in ns.
inline constexpr const char *kClockErrorArg = "error_ns";

} // namespace prof

#endif
