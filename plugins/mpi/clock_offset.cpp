#include "clock_offset.hpp"

#include "real_mpi.hpp"

#include <mpi.h>

#include <dlfcn.h>

namespace prof::mpi {
namespace {

constexpr int kRounds = 10;
constexpr int kPingTag = 1, kPongTag = 2;

#ifdef OPEN_MPI
// An object of the library's as the process uses it: a program that names
// MPI_COMM_WORLD holds a copy of it (a copy relocation) that the library
// uses too, found first in the global scope; the library's own symbol
// otherwise (loaded with local scope, as mpi4py does).
void *predefined(const char *name) {
  if (void *found = dlsym(RTLD_DEFAULT, name)) return found;
  return find_pmpi(name);
}
#endif

// MPI's predefined handles without linking the library: Open MPI's are
// addresses of its objects, MPICH's are constants.
MPI_Comm world() {
#ifdef OPEN_MPI
  return reinterpret_cast<MPI_Comm>(predefined("ompi_mpi_comm_world"));
#else
  return MPI_COMM_WORLD;
#endif
}
MPI_Datatype bytes() {
#ifdef OPEN_MPI
  return reinterpret_cast<MPI_Datatype>(predefined("ompi_mpi_byte"));
#else
  return MPI_BYTE;
#endif
}

} // namespace

std::optional<ClockOffset> measure_clock_offset(uint64_t (*now)()) {
  static const auto dup = pmpi<int (*)(MPI_Comm, MPI_Comm *)>("PMPI_Comm_dup");
  static const auto free_comm = pmpi<int (*)(MPI_Comm *)>("PMPI_Comm_free");
  static const auto rank_of = pmpi<int (*)(MPI_Comm, int *)>("PMPI_Comm_rank");
  static const auto size_of = pmpi<int (*)(MPI_Comm, int *)>("PMPI_Comm_size");
  static const auto send =
      pmpi<int (*)(const void *, int, MPI_Datatype, int, int, MPI_Comm)>("PMPI_Send");
  static const auto recv =
      pmpi<int (*)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *)>("PMPI_Recv");
  static const auto barrier = pmpi<int (*)(MPI_Comm)>("PMPI_Barrier");
  const MPI_Comm world_comm = world();
  const MPI_Datatype byte = bytes();
  if (!dup || !free_comm || !rank_of || !size_of || !send || !recv || !barrier || !world_comm ||
      !byte)
    return std::nullopt;
  MPI_Comm comm; // private: no message of the application's can match ours
  if (dup(world_comm, &comm) != MPI_SUCCESS) return std::nullopt;
  int rank = 0, size = 0;
  rank_of(comm, &rank);
  size_of(comm, &size);
  ClockOffset result;
  result.rank = rank;
  bool measured = rank == 0;
  if (rank == 0) {
    for (int peer = 1; peer < size; ++peer)
      for (int round = 0; round < kRounds; ++round) {
        uint64_t ping = 0;
        if (recv(&ping, sizeof ping, byte, peer, kPingTag, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
          break;
        const uint64_t t = now();
        send(&t, sizeof t, byte, peer, kPongTag, comm);
      }
    result.at_ns = now();
  } else {
    uint64_t best = UINT64_MAX;
    for (int round = 0; round < kRounds; ++round) {
      const uint64_t t0 = now();
      uint64_t remote = 0;
      if (send(&t0, sizeof t0, byte, 0, kPingTag, comm) != MPI_SUCCESS ||
          recv(&remote, sizeof remote, byte, 0, kPongTag, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        break;
      const uint64_t t1 = now();
      if (t1 - t0 >= best) continue;
      best = t1 - t0;
      const uint64_t middle = t0 + (t1 - t0) / 2;
      result.offset_ns = static_cast<int64_t>(remote - middle);
      result.error_ns = (t1 - t0 + 1) / 2;
      result.at_ns = middle;
      measured = true;
    }
  }
  // Rank 0 serves the ranks one after another, so they would leave at
  // staggered times and the program's first collective would seem late.
  barrier(comm);
  free_comm(&comm);
  if (!measured) return std::nullopt;
  return result;
}

} // namespace prof::mpi
