// The mpi source: MPI calls of the profiled process, through the profiling
// interface (PMPI). The interposers (mpi_interposers.cpp) are exported by
// the preloaded plugin and pass calls straight through until an instance
// starts; then each call is a communication slice on its thread's track.
#ifndef PROF_PLUGINS_MPI_MPI_SOURCE_HPP
#define PROF_PLUGINS_MPI_MPI_SOURCE_HPP

#include "mpi_recorder.hpp"

#include <prof/declared_options.hpp>
#include <prof/plugin.hpp>

#include <memory>

namespace prof::mpi {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"clock-sync", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "measure each rank's clock against rank 0's at MPI_Init and MPI_Finalize (a ping-pong over "
     "a copy of MPI_COMM_WORLD) for prof merge; every rank must run the mpi source, or the "
     "others wait for it"},
};

class MpiSource {
public:
  explicit MpiSource(Host host) : host_(host) {}
  ~MpiSource() { stop(); }
  MpiSource(const MpiSource &) = delete;
  MpiSource &operator=(const MpiSource &) = delete;

  bool configure() {
    clock_sync_ = DeclaredOptions(host_, kOptions).flag("clock-sync");
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
