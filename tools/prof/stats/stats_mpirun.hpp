// `prof stats --mpi N ...`: the same command as N processes under the MPI
// launcher on PATH (mpirun, else mpiexec; PROF_MPIRUN names another), so
// that a user need not spell the launcher's options.
#pragma once

#include <string>
#include <vector>

namespace prof::tool {

/// Runs `mpirun -np PROCESSES prof stats ARGS` (ARGS without --mpi) and
/// returns its exit code. Throws cli::UsageError when `processes` is not a
/// number from 1 to 65536, when no launcher is found, or when this process
/// already runs under one.
int run_under_mpirun(const std::string &processes, const std::vector<std::string> &args);

} // namespace prof::tool
