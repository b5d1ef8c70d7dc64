// What every interposed MPI call does, from C or from Fortran: call the
// library and, while an instance traces this process, record the call with
// its facts (bytes, peer, root, communicator).
#ifndef PROF_PLUGINS_MPI_TRACED_CALL_HPP
#define PROF_PLUGINS_MPI_TRACED_CALL_HPP

#include "collective_counts.hpp"
#include "mpi_recorder.hpp"
#include "real_mpi.hpp"

#include <prof/tsc_clock.hpp>

#include <mpi.h>

#include <cstdint>

/// An interposed function, exported from the plugin.
#define PROF_MPI_EXPORT extern "C" __attribute__((visibility("default")))

namespace prof::mpi {

/// >0 inside a recorded call: nested calls pass through. Static TLS, as in
/// mpi_recorder.cpp.
extern __thread int t_depth __attribute__((tls_model("initial-exec")));

// The session clock, through the TSC where it can stand in (MpiSource::start
// enables it): two reads are most of what a recorded call costs.
inline uint64_t clock_ns() { return TscClock::now_ns(); }

inline int64_t bytes_of(int count, MPI_Datatype type) {
  static const auto type_size = pmpi<int (*)(MPI_Datatype, int *)>("PMPI_Type_size");
  int size = 0;
  if (type_size == nullptr || count < 0 || type_size(type, &size) != MPI_SUCCESS) return -1;
  return int64_t{count} * size;
}

inline int64_t sum_bytes(const int counts[], int n, MPI_Datatype type) {
  if (counts == nullptr || n <= 0) return -1;
  int64_t total = 0;
  for (int i = 0; i < n; ++i)
    total += counts[i];
  return bytes_of(1, type) * total;
}

inline int comm_size(MPI_Comm comm) {
  static const auto size_of = pmpi<int (*)(MPI_Comm, int *)>("PMPI_Comm_size");
  int size = 0;
  if (size_of) size_of(comm, &size);
  return size;
}

/// Runs `call` and, when an instance traces this process, records it with
/// what `facts` says (asked after the call: a receive's status is known then).
template <class Call, class Facts>
inline int traced(MpiFunction function, Call &&call, Facts &&facts) {
  if (t_depth > 0) return call();
  // A collective's facts are its arguments: known before it runs, they give
  // its sequence (counted while nothing records too: collective_counts.hpp)
  // and show in dumps.
  const bool early = facts_known_before(function);
  CallFacts known;
  if (early) known = facts();
  const uint64_t sequence = known.collective && known.has_comm ? count_collective(known.comm) : 0;
  if (active_recorder() == nullptr) return call();
  ++t_depth;
  const uint64_t begin = clock_ns();
  begin_call(function, begin, early ? &known : nullptr, sequence);
  const int result = call();
  const uint64_t end = clock_ns();
  record_call(function, begin, end, early ? known : facts(), sequence);
  --t_depth;
  return result;
}

inline CallFacts p2p(int64_t bytes, int peer, int tag, MPI_Comm comm) {
  CallFacts f;
  f.bytes = bytes;
  f.peer = peer;
  f.tag = tag;
  f.comm = comm;
  f.has_comm = true;
  return f;
}

inline CallFacts collective(int64_t bytes, MPI_Comm comm, int root = CallFacts::kNone) {
  CallFacts f;
  f.bytes = bytes;
  f.root = root;
  f.comm = comm;
  f.has_comm = true;
  f.collective = true;
  return f;
}

inline CallFacts waiting(int requests) {
  CallFacts f;
  f.requests = requests;
  return f;
}

inline CallFacts window(int peer) {
  CallFacts f;
  f.peer = peer;
  return f;
}

} // namespace prof::mpi

#endif
