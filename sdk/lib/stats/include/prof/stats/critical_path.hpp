// The critical path of a training step across ranks: the chain of work that
// the step's end waited for, walked backward from the end of the rank that
// finished the step last. On a thread the walk goes back through the
// deepest slice running at each moment; across threads and devices it
// follows what released a wait (a synchronization to the device work it
// waited for, device work to its launch by its flow, a thread idle until a
// communication call of its process ended); across ranks it follows each
// collective (matched by communicator and sequence) to the rank that
// arrived at it last, since that arrival released the others. Times are
// used as given: ranks of one wall clock (MPI, torch) compare directly.
#pragma once

#include <prof/stats/step_slices.hpp>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace prof::stats {

/// What a stretch of the path was spent on.
enum class PathWork : uint8_t {
  Compute,       ///< device work: kernels, copies, sets
  Communication, ///< communication calls, once their last rank had arrived
  Launch,        ///< runtime and driver API calls, and launch to device start
  Host,          ///< other host slices: operators, their own time
  Waiting,       ///< synchronization, or a call waiting in a queue
  Untraced,      ///< nothing recorded on the thread then, or an annotation's own time
};
inline constexpr size_t kPathWorkKinds = 6;
/// "compute", "communication", "launch", "host", "waiting", "untraced".
std::string_view path_work_name(PathWork work);

/// One stretch of the path, on one track.
struct PathSegment {
  uint64_t begin = 0, end = 0;
  prof_track_id track = 0, process = 0;
  prof_string_id name = 0;   ///< the slice running then; 0 in a gap
  prof_string_id within = 0; ///< the outermost slice around it on its track, 0 if none
  PathWork work = PathWork::Untraced;
};

/// A collective on the path that a rank came to last: where the path crossed
/// to that rank, or where the path's own rank came last and the others waited.
struct PathWait {
  uint64_t at = 0;                     ///< the late rank's arrival
  prof_track_id waiting = 0, late = 0; ///< processes: the one released, the late one
  prof_string_id name = 0, communicator = 0;
  uint64_t sequence = 0;
  uint64_t waited = 0;   ///< the late arrival less the waiting process's own
  uint64_t lateness = 0; ///< the late arrival less the one before it (any rank's)
};

struct CriticalPath {
  uint64_t step = 0;
  uint64_t begin = 0, end = 0;       ///< from where the walk stopped to the step's last end
  prof_track_id last = 0;            ///< the process that ended the step last
  std::vector<PathSegment> segments; ///< in time order, covering [begin, end)
  std::vector<PathWait> waits;       ///< in time order
  std::array<uint64_t, kPathWorkKinds> by_work{}; ///< ns of the path on each PathWork
  uint64_t length() const { return end - begin; }
  /// The largest lateness on the path (nullptr if none): the step would
  /// have been that much shorter had that rank arrived with the others.
  const PathWait *largest_wait() const;
  /// The largest lateness when it is a tenth of the path or more: what
  /// held the step up (nullptr if none).
  const PathWait *holding_wait() const;
};

/// The critical path of each step the collector kept, in step order. A step
/// with no slice of its own on any process is left out.
std::vector<CriticalPath> find_critical_paths(const StepSliceCollector &slices);

} // namespace prof::stats
