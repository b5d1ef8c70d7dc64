#include "collective_counts.hpp"

namespace prof::mpi {
namespace {

/// A thread's communicators; past kComms at once, the oldest entry goes (its
/// count restarts where it comes back).
struct Counts {
  static constexpr uint32_t kComms = 32;
  struct Entry {
    MPI_Comm comm;
    uint64_t calls;
  } entries[kComms];
  uint32_t used, next;
};
__thread Counts t_counts __attribute__((tls_model("initial-exec")));

} // namespace

uint64_t count_collective(MPI_Comm comm) {
  Counts &counts = t_counts;
  for (uint32_t i = 0; i < counts.used; ++i)
    if (counts.entries[i].comm == comm) return ++counts.entries[i].calls;
  const uint32_t slot =
      counts.used < Counts::kComms ? counts.used++ : counts.next++ % Counts::kComms;
  counts.entries[slot] = {comm, 1};
  return 1;
}

void forget_collectives(MPI_Comm comm) {
  Counts &counts = t_counts;
  for (uint32_t i = 0; i < counts.used; ++i)
    if (counts.entries[i].comm == comm) counts.entries[i] = counts.entries[--counts.used];
}

} // namespace prof::mpi
