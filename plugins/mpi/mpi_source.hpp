// The mpi source: MPI calls of the profiled process, through the profiling
// interface (PMPI). The interposers (mpi_interposers.cpp) are exported by
// the preloaded plugin and pass calls straight through until an instance
// starts; then each call is a communication slice on its thread's track.
#ifndef PROF_PLUGINS_MPI_MPI_SOURCE_HPP
#define PROF_PLUGINS_MPI_MPI_SOURCE_HPP

#include "mpi_recorder.hpp"

#include <prof/plugin.hpp>

#include <memory>

namespace prof::mpi {

class MpiSource {
public:
  explicit MpiSource(Host host) : host_(host) {}
  ~MpiSource() { stop(); }
  MpiSource(const MpiSource &) = delete;
  MpiSource &operator=(const MpiSource &) = delete;

  bool configure() {
    clock_sync_ = host_.option_bool("clock-sync", false);
    return true;
  }
  /// Fails when another mpi instance already traces this process.
  bool start();
  /// Returns once no call is recording into this instance any more.
  bool stop();
  bool suspend();
  bool resume();
  bool flush() { return true; }
  /// The calls threads are inside now, for a flight recorder's dump.
  bool emit_unfinished(uint64_t now) {
    if (recorder_) recorder_->emit_unfinished(now);
    return true;
  }

private:
  Host host_;
  std::unique_ptr<MpiRecorder> recorder_;
  bool installed_ = false;
  bool clock_sync_ = false;
};

} // namespace prof::mpi

#endif
