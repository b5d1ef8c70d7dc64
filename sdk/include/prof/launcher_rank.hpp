// The rank a launcher (torchrun, Open MPI's mpirun, MPICH's, srun) gives a
// process through its environment.
#ifndef PROF_LAUNCHER_RANK_HPP
#define PROF_LAUNCHER_RANK_HPP

#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>

namespace prof {

/// The variables launchers set, in the order they are looked at.
inline constexpr const char *kLauncherRankVariables[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                                         "SLURM_PROCID"};

/// The world size each of kLauncherRankVariables goes with, in that order.
inline constexpr const char *kLauncherWorldSizeVariables[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE",
                                                              "PMI_SIZE", "SLURM_NTASKS"};

/// The first of kLauncherRankVariables set (and not empty) in this
/// process's environment, nullptr when none is.
inline const char *launcher_rank_variable() {
  for (const char *variable : kLauncherRankVariables)
    if (const char *rank = std::getenv(variable); rank != nullptr && *rank != '\0') return variable;
  return nullptr;
}

/// The world size the launcher set beside launcher_rank_variable()'s rank
/// (WORLD_SIZE beside RANK, ...), nullptr when none.
inline const char *launcher_world_size() {
  for (size_t i = 0; i < std::size(kLauncherRankVariables); ++i)
    if (const char *rank = std::getenv(kLauncherRankVariables[i]); rank != nullptr && *rank != '\0')
      return std::getenv(kLauncherWorldSizeVariables[i]);
  return nullptr;
}

/// What the name of a process's track ends with under a launcher: " (rank 3)".
inline std::string rank_suffix(std::string_view rank) {
  return " (rank " + std::string(rank) + ")";
}

/// The rank a process track's name ends with (see rank_suffix), -1 when it
/// names none.
inline int rank_in_track_name(std::string_view name) {
  constexpr std::string_view kOpen = " (rank ";
  if (!name.ends_with(')')) return -1;
  const size_t open = name.rfind(kOpen);
  if (open == std::string_view::npos) return -1;
  const std::string_view digits =
      name.substr(open + kOpen.size(), name.size() - 1 - open - kOpen.size());
  if (digits.empty() || digits.size() > 9) return -1;
  int rank = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return -1;
    rank = rank * 10 + (c - '0');
  }
  return rank;
}

} // namespace prof

#endif
