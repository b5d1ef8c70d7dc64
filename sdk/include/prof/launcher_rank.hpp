// The rank a launcher (torchrun, Open MPI's mpirun, MPICH's, srun) gives a
// process through its environment.
#ifndef PROF_LAUNCHER_RANK_HPP
#define PROF_LAUNCHER_RANK_HPP

#include <cstdlib>

namespace prof {

/// The variables launchers set, in the order they are looked at.
inline constexpr const char *kLauncherRankVariables[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                                         "SLURM_PROCID"};

/// The first of kLauncherRankVariables set (and not empty) in this
/// process's environment, nullptr when none is.
inline const char *launcher_rank_variable() {
  for (const char *variable : kLauncherRankVariables)
    if (const char *rank = std::getenv(variable); rank != nullptr && *rank != '\0') return variable;
  return nullptr;
}

} // namespace prof

#endif
