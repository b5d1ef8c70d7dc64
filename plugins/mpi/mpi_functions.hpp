// The MPI functions the mpi source interposes, by family: what each call's
// slice is named and which arguments it carries.
#ifndef PROF_PLUGINS_MPI_MPI_FUNCTIONS_HPP
#define PROF_PLUGINS_MPI_MPI_FUNCTIONS_HPP

#include <cstddef>
#include <cstdint>

namespace prof::mpi {

// A table, one family a line.
// clang-format off
#define PROF_MPI_FUNCTIONS(X)                                                                      \
  X(Init) X(Init_thread) X(Finalize)                                                               \
  X(Send) X(Ssend) X(Bsend) X(Rsend) X(Isend) X(Issend) X(Recv) X(Irecv) X(Sendrecv) X(Probe)      \
  X(Wait) X(Waitall) X(Waitany) X(Waitsome)                                                        \
  X(Barrier) X(Bcast) X(Reduce) X(Allreduce) X(Gather) X(Gatherv) X(Scatter) X(Scatterv)           \
  X(Allgather) X(Allgatherv) X(Alltoall) X(Alltoallv) X(Reduce_scatter)                            \
  X(Reduce_scatter_block) X(Scan) X(Exscan)                                                        \
  X(Ibarrier) X(Ibcast) X(Ireduce) X(Iallreduce) X(Iallgather) X(Ialltoall)                        \
  X(Win_fence) X(Win_lock) X(Win_unlock) X(Win_flush) X(Put) X(Get) X(Accumulate)                  \
  X(Comm_split) X(Comm_dup) X(Comm_create) X(Comm_free)
// clang-format on

enum class MpiFunction : uint8_t {
#define PROF_MPI_ENUM(name) name,
  PROF_MPI_FUNCTIONS(PROF_MPI_ENUM)
#undef PROF_MPI_ENUM
};

inline constexpr const char *kMpiFunctionNames[] = {
#define PROF_MPI_NAME(name) "MPI_" #name,
    PROF_MPI_FUNCTIONS(PROF_MPI_NAME)
#undef PROF_MPI_NAME
};
inline constexpr size_t kMpiFunctionCount = sizeof kMpiFunctionNames / sizeof *kMpiFunctionNames;

} // namespace prof::mpi

#endif
