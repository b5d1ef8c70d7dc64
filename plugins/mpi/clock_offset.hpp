// This rank's session clock against rank 0's, measured by a ping-pong over
// a private copy of MPI_COMM_WORLD, so that `prof merge` can align ranks
// whose hosts' clocks disagree.
#ifndef PROF_PLUGINS_MPI_CLOCK_OFFSET_HPP
#define PROF_PLUGINS_MPI_CLOCK_OFFSET_HPP

#include <cstdint>
#include <optional>

namespace prof::mpi {

struct ClockOffset {
  int64_t offset_ns = 0; ///< rank 0's clock minus this rank's, at `at_ns`
  uint64_t error_ns = 0; ///< half the round trip it was measured in
  uint64_t at_ns = 0;    ///< this rank's clock
  int rank = 0;
};

/// Collective: every rank of MPI_COMM_WORLD must call it (which is why the
/// mpi source does it only when told every rank runs it). Each rank in
/// turn pings rank 0 kRounds times; rank 0 answers each with its clock; the
/// shortest round trip gives the estimate. Rank 0's is 0. nullopt when MPI
/// cannot be reached.
std::optional<ClockOffset> measure_clock_offset(uint64_t (*now)());

} // namespace prof::mpi

#endif
