// What the mpi source calls a communicator, alike on every rank that is a
// member of it, so that reports of different ranks can be matched: MPI's
// own name (MPI_COMM_WORLD, or one the program set); for a communicator the
// program made, one derived from how it was made ("MPI_COMM_WORLD/split 1",
// "MPI_COMM_WORLD/dup 2"); else "communicator N", N its handle.
#ifndef PROF_PLUGINS_MPI_COMM_NAMES_HPP
#define PROF_PLUGINS_MPI_COMM_NAMES_HPP

#include <mpi.h>

#include <string>

namespace prof::mpi {

/// The name of `comm`, as above.
std::string comm_name(MPI_Comm comm);
/// `made` came from MPI_Comm_split(`parent`, `color`, ...).
void name_split(MPI_Comm parent, int color, MPI_Comm made);
/// `made` came from MPI_Comm_dup or MPI_Comm_create (`how`) of `parent`:
/// numbered per parent, as every member makes them in the same order.
void name_copy(MPI_Comm parent, const char *how, MPI_Comm made);
/// `comm` is being freed: its handle may name another communicator later.
void forget_name(MPI_Comm comm);

} // namespace prof::mpi

#endif
