// Records one MPI call as a communication slice on the calling thread's
// track, with its bytes, peer or root, tag and communicator as arguments.
// A communicator's size and the process's rank in it are an instant, "MPI
// communicator", once per thread. A collective call also carries its
// `sequence` on its communicator (1, 2, ...), counted per thread and
// communicator name: ranks make a communicator's collectives in the same
// order, so equal sequences are one operation. Strings and tracks are
// interned once: a recorded call costs two clock reads and one emit.
#ifndef PROF_PLUGINS_MPI_MPI_RECORDER_HPP
#define PROF_PLUGINS_MPI_MPI_RECORDER_HPP

#include "mpi_functions.hpp"

#include <prof/plugin.hpp>

#include <mpi.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstdint>

namespace prof::mpi {

/// What a call says beyond its name; a field left at its default is not recorded.
struct CallFacts {
  static constexpr int kNone = INT_MIN;
  int64_t bytes = -1;
  int peer = kNone;
  int root = kNone;
  int tag = kNone;
  int requests = -1;
  MPI_Comm comm{}; ///< valid when has_comm (MPI's constants are symbols of a library not linked)
  bool has_comm = false;
  /// Every rank of the communicator makes the call, in the same order: it
  /// carries its `sequence` on the communicator, which matches it across ranks.
  bool collective = false;
};

struct ThreadState;

struct ClockOffset;

class MpiRecorder {
public:
  /// `clock_sync`: every rank runs the mpi source, so MPI_Init and
  /// MPI_Finalize may measure this rank's clock against rank 0's.
  MpiRecorder(const Host &host, bool clock_sync);
  bool clock_sync() const { return clock_sync_; }
  /// An instant "clock offset to rank 0" on the process's track, with
  /// `offset_ns` (rank 0's clock minus this one's) and `error_ns`.
  void record_clock_offset(const ClockOffset &offset);
  /// A call begins on this thread: a dump shows it unfinished until it is
  /// recorded, with its communicator when `facts` are known before the call
  /// and a collective's `sequence` (0: none).
  void begin(MpiFunction function, uint64_t begin, const CallFacts *facts, uint64_t sequence);
  /// Records a call that ran from `begin` to `end` (session clock), with a
  /// collective's `sequence` (0: none).
  void record(MpiFunction function, uint64_t begin, uint64_t end, const CallFacts &facts,
              uint64_t sequence);
  /// Each call a thread is inside, as a slice ending at `now`, with its
  /// communicator and sequence (prof_source_vtable::emit_unfinished).
  void emit_unfinished(uint64_t now) const;

  /// A communicator as a thread last looked it up.
  struct CommInfo { // plain data: it lives in static TLS
    MPI_Comm comm;
    prof_string_id name;
    int size, rank;
  };

private:
  ThreadState &thread_state();
  prof_track_id thread_track(ThreadState &state);
  const CommInfo &comm_info(ThreadState &state, MPI_Comm comm);

  Host host_;
  const uint32_t id_; ///< tells this recorder's open calls from an earlier one's
  bool clock_sync_ = false;
  std::array<prof_string_id, kMpiFunctionCount> names_{};
  prof_string_id category_ = 0;
  prof_string_id bytes_ = 0, peer_ = 0, root_ = 0, tag_ = 0, requests_ = 0, comm_ = 0,
                 comm_size_ = 0, rank_ = 0, communicator_ = 0, sequence_ = 0;
};

/// The recorder of the started instance, if any: what the interposers use.
MpiRecorder *active_recorder();
/// With the active recorder, if any: a call begins (MpiRecorder::begin).
void begin_call(MpiFunction function, uint64_t begin, const CallFacts *facts, uint64_t sequence);
/// Records a call with the active recorder, if one is still there; the
/// thread is inside no call any more.
void record_call(MpiFunction function, uint64_t begin, uint64_t end, const CallFacts &facts,
                 uint64_t sequence);
/// Whether a call's facts are known before it runs: a collective's.
constexpr bool facts_known_before(MpiFunction f) {
  return (f >= MpiFunction::Barrier && f <= MpiFunction::Ialltoall) ||
         f == MpiFunction::Comm_split || f == MpiFunction::Comm_dup ||
         f == MpiFunction::Comm_create;
}
/// With the active recorder's clock-sync on: measures this rank's clock
/// against rank 0's (collective over MPI_COMM_WORLD) and records it.
void sync_clock_with_rank_zero();
/// Installs `recorder` (false when another is); nullptr removes it and
/// returns once no call is recording into the one removed.
bool install_recorder(MpiRecorder *recorder);
/// Bumped when a communicator is freed or the process forks: cached
/// communicator names and thread tracks are looked up again.
extern std::atomic<uint32_t> g_generation;

} // namespace prof::mpi

#endif
