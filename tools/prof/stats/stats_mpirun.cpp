#include "tools/prof/stats/stats_mpirun.hpp"

#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/run_context.hpp"
#include "tools/prof/stats/stats_job.hpp"

#include <boost/dll/runtime_symbol_info.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace prof::tool {
namespace {

cli::UsageError usage(const std::string &message) { return cli::UsageError("stats: " + message); }

/// The launcher: PROF_MPIRUN, else mpirun or mpiexec on PATH; "" when none.
std::string find_launcher() {
  if (const char *named = std::getenv("PROF_MPIRUN"); named && *named) return named;
  const char *path = std::getenv("PATH");
  for (const char *name : {"mpirun", "mpiexec"}) {
    std::stringstream folders(path ? path : "");
    for (std::string folder; std::getline(folders, folder, ':');) {
      const std::filesystem::path candidate = std::filesystem::path(folder) / name;
      if (!folder.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  }
  return "";
}

} // namespace

int run_under_mpirun(const std::string &processes, const std::vector<std::string> &args) {
  char *end = nullptr;
  const long count = std::strtol(processes.c_str(), &end, 10);
  if (processes.empty() || *end != '\0' || count < 1 || count > 65536)
    throw usage("--mpi '" + processes + "' is not a number of processes from 1 to 65536");
  if (StatsJob::launcher_rank() >= 0)
    throw usage("--mpi under an MPI launcher: give one or the other");
  const std::string launcher = find_launcher();
  if (launcher.empty())
    throw usage("--mpi needs mpirun or mpiexec on PATH (Debian: openmpi-bin), or PROF_MPIRUN");
  boost::dll::fs::error_code ec;
  const std::string self = boost::dll::program_location(ec).string();

  std::vector<std::string> words = {launcher, "-np", std::to_string(count), self, "stats"};
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--mpi") {
      ++i; // and its value
      continue;
    }
    if (args[i].rfind("--mpi=", 0) == 0) continue;
    words.push_back(args[i]);
  }
  std::vector<char *> argv;
  for (std::string &word : words)
    argv.push_back(word.data());
  argv.push_back(nullptr);
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("stats: cannot start " + launcher);
  if (child == 0) {
    // Open MPI: as root, and more processes than cores, as the user asked.
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    ::setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
    ::execv(argv[0], argv.data());
    std::fprintf(stderr, "prof: stats: cannot run %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(kExitFailure);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : kExitFailure;
}

} // namespace prof::tool
