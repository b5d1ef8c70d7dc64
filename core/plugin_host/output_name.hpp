// Output names with nsys's macros, so each process or rank of a launcher
// (mpirun, torchrun, srun) writes its own report:
//   %p pid of the profiled process   %h host name   %t start time
//   %i the lowest index 1, 2, ... for which the name is free
//   %q{ENV} the value of environment variable ENV   %% a percent sign
#pragma once

#include <ctime>
#include <map>
#include <string>

namespace prof::core {

struct OutputNameFacts {
  int pid = 0;
  std::string host;
  std::time_t start = 0;
  /// Values %q{NAME} takes before the environment's.
  std::map<std::string, std::string> variables = {};
};

/// The name `pattern` stands for; `extension` (".profrep") is what the file
/// will end with, used when %i looks for a free name. Throws
/// InputError naming the pattern for an unknown macro, %q without
/// {NAME} or an unset variable.
std::string expand_output_name(const std::string &pattern, const OutputNameFacts &facts,
                               const std::string &extension);

/// The launcher rank variable (RANK, OMPI_COMM_WORLD_RANK, PMI_RANK,
/// SLURM_PROCID) that `pattern` names as %q{NAME} while prof's environment
/// does not set it: prof runs around the launcher (`prof -o r%q{RANK}
/// mpirun ...`) and writes one report per rank. "" when there is none.
std::string rank_variable_to_split(const std::string &pattern);

/// Whether `pattern` holds a macro (a '%').
inline bool has_output_macros(const std::string &pattern) {
  return pattern.find('%') != std::string::npos;
}

/// Whether `path` may be written: false with `error` set when it exists and
/// --force-overwrite is not given, or when its folder does not exist.
bool output_path_allowed(const std::string &path, bool force, std::string *error);

} // namespace prof::core
