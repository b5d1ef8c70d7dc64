// How many collective calls each thread made on each communicator since the
// plugin was loaded (preloaded when the process starts), recording or not:
// a collective's `sequence` is that count, so ranks whose recording began
// at different moments (`prof attach` to a running job) still give one
// operation one number. Per thread and communicator handle, in static TLS;
// a freed handle's count goes (it may name another communicator later).
#ifndef PROF_PLUGINS_MPI_COLLECTIVE_COUNTS_HPP
#define PROF_PLUGINS_MPI_COLLECTIVE_COUNTS_HPP

#include <mpi.h>

#include <cstdint>

namespace prof::mpi {

/// Counts one more collective call of this thread on `comm`; returns the count (1, 2, ...).
uint64_t count_collective(MPI_Comm comm);
/// MPI_Comm_free: this thread's count for `comm` starts again.
void forget_collectives(MPI_Comm comm);

} // namespace prof::mpi

#endif
