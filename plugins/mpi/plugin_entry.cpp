// ABI glue of the mpi source: descriptor, vtable and entry symbol. Reading
// the descriptor has no side effects: the interposers record nothing until
// an instance starts.
#include "mpi_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = [] {
  prof_plugin_descriptor d = prof::source_descriptor<prof::mpi::MpiSource>(
      "mpi", "1.0.0",
      "MPI calls of the profiled process through the profiling interface (PMPI): point-to-point, "
      "collectives, waits and one-sided synchronization, with bytes, peer, root, tag and "
      "communicator",
      PROF_SCOPE_PROCESS, prof::mpi::kOptions, "prof project");
  d.flags = PROF_PLUGIN_INTERPOSES; // its MPI_Send(), MPI_Allreduce() ...
  return d;
}();

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
