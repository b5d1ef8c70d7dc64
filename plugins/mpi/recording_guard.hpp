// Which threads are inside a recording, so that stopping waits for them
// before the recorder goes. A recording thread marks itself with plain
// stores in a slot of its own; the stopping thread clears the recorder
// pointer, makes every thread of the process pass a memory barrier
// (membarrier(2), as liburcu's memb flavour does) and waits for the marks.
// Where membarrier is missing, one shared counter does it, at the price of
// two locked instructions per call.
#ifndef PROF_PLUGINS_MPI_RECORDING_GUARD_HPP
#define PROF_PLUGINS_MPI_RECORDING_GUARD_HPP

#include <atomic>
#include <cstdint>

namespace prof::mpi {

/// Enables the fast marks when the kernel has membarrier; before a recorder is installed.
void prepare_recording_guard();

/// One thread's mark; slots outlive the threads that own them.
struct alignas(64) RecordingSlot {
  std::atomic<uint32_t> owned{0};
  std::atomic<uint32_t> busy{0};
};

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

} // namespace prof::mpi

#endif
