// Which threads are inside a recording, so that stopping waits for them
// before the recorder goes. A recording thread marks itself with plain
// stores in a slot of its own; the stopping thread clears the recorder
// pointer, makes every thread of the process pass a memory barrier
// (membarrier(2), as liburcu's memb flavour does) and waits for the marks.
// Where membarrier is missing, one shared counter does it, at the price of
// two locked instructions per call.
//
// A thread's slot also says which MPI call it is inside, for the flight
// recorder's dumps: another thread reads it as a seqlock keyed by the
// call's begin time.
#ifndef PROF_PLUGINS_MPI_RECORDING_GUARD_HPP
#define PROF_PLUGINS_MPI_RECORDING_GUARD_HPP

#include <atomic>
#include <cstdint>
#include <span>

namespace prof::mpi {

/// Enables the fast marks when the kernel has membarrier; before a recorder is installed.
void prepare_recording_guard();

/// The MPI call a thread is inside.
struct OpenCall {
  uint64_t begin = 0; ///< session clock; 0: none
  uint32_t track = 0, function = 0, comm = 0;
  uint64_t sequence = 0; ///< a collective's, else 0
  uint32_t recorder = 0; ///< which recorder's ids the others are
};

/// One thread's mark (in a prof::ThreadSlots table).
struct alignas(64) RecordingSlot {
  std::atomic<uint32_t> owned{0};
  std::atomic<uint32_t> busy{0};
  std::atomic<uint64_t> call_begin{0}; ///< written last; 0 while none
  std::atomic<uint32_t> call_track{0}, call_function{0}, call_comm{0}, call_recorder{0};
  std::atomic<uint64_t> call_sequence{0};
  /// Its thread is gone: no call is open (as before the port to ThreadSlots).
  void released() noexcept { call_begin.store(0, std::memory_order_relaxed); }
};

/// The calling thread enters `call` (begin != 0) until open_call_ends().
/// Threads past the slots' number are not shown.
void open_call_begins(const OpenCall &call) noexcept;
void open_call_ends() noexcept;
/// Calls `visit(const OpenCall &)` for each call a thread is inside now.
template <class Visit> void for_each_open_call(Visit &&visit);

/// Marks the calling thread as recording from its construction to its
/// destruction. Load the recorder pointer (relaxed) only after constructing it.
class RecordingMark {
public:
  RecordingMark() noexcept;
  ~RecordingMark();
  RecordingMark(const RecordingMark &) = delete;
  RecordingMark &operator=(const RecordingMark &) = delete;

private:
  static RecordingSlot *claim() noexcept;
  RecordingSlot *slot_;
};

/// After the recorder pointer was cleared: returns once no thread is still
/// recording into the recorder it saw.
void wait_for_recordings();

/// In a forked child: only the forking thread exists.
void reset_recording_guard_after_fork();

/// The slot table, for for_each_open_call.
std::span<RecordingSlot> recording_slots() noexcept;

template <class Visit> void for_each_open_call(Visit &&visit) {
  for (RecordingSlot &s : recording_slots()) {
    const uint64_t begin = s.call_begin.load(std::memory_order_acquire);
    if (begin == 0) continue;
    const OpenCall call{begin,
                        s.call_track.load(std::memory_order_relaxed),
                        s.call_function.load(std::memory_order_relaxed),
                        s.call_comm.load(std::memory_order_relaxed),
                        s.call_sequence.load(std::memory_order_relaxed),
                        s.call_recorder.load(std::memory_order_relaxed)};
    std::atomic_thread_fence(std::memory_order_acquire);
    // Its thread left that call meanwhile (and may be in the next): not shown.
    if (s.call_begin.load(std::memory_order_relaxed) == begin) visit(call);
  }
}

} // namespace prof::mpi

#endif
