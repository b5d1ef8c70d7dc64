#include "tools/prof/stats/stats_job.hpp"

#include "tools/stats-mpi/stats_mpi.h"

#include <boost/dll/runtime_symbol_info.hpp>

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace prof::tool {
namespace {

/// The launcher's number of processes and this one's rank, when set.
bool launched(int &rank, int &size) {
  static constexpr std::pair<const char *, const char *> kVariables[] = {
      {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"}, // Open MPI
      {"PMI_SIZE", "PMI_RANK"},                         // MPICH (Hydra), srun
  };
  for (const auto &[size_variable, rank_variable] : kVariables) {
    const char *s = std::getenv(size_variable), *r = std::getenv(rank_variable);
    if (s == nullptr || r == nullptr) continue;
    char *end_size = nullptr, *end_rank = nullptr;
    const long n = std::strtol(s, &end_size, 10), k = std::strtol(r, &end_rank, 10);
    if (*s == '\0' || *end_size != '\0' || *r == '\0' || *end_rank != '\0' || n < 1 || k < 0 ||
        k >= n || n > 1'000'000)
      continue;
    size = static_cast<int>(n);
    rank = static_cast<int>(k);
    return true;
  }
  return false;
}

std::string module_path() {
  if (const char *path = std::getenv("PROF_STATS_MPI_PATH"); path && *path) return path;
  boost::dll::fs::error_code ec;
  const std::filesystem::path exe = boost::dll::program_location(ec);
  return (exe.parent_path() / ".." / "lib" / "prof" / "libprof-stats-mpi.so")
      .lexically_normal()
      .string();
}

/// Function `name` of the loaded module as an F; nullptr without it.
template <typename F> F symbol(void *handle, const char *name) {
  return handle ? reinterpret_cast<F>(::dlsym(handle, name)) : nullptr;
}

} // namespace

int StatsJob::launcher_rank() {
  int rank = 0, size = 1;
  return launched(rank, size) && size > 1 ? rank : -1;
}

struct StatsJob::Mpi {
  Mpi(decltype(&prof_stats_mpi_gather) g, decltype(&prof_stats_mpi_finalize) f)
      : gather(g), finalize(f) {}
  Mpi(const Mpi &) = delete; // MPI is finalized once, by the one that ends
  Mpi &operator=(const Mpi &) = delete;
  // The library stays loaded: MPI libraries do not survive being unloaded.
  ~Mpi() { finalize(); }
  decltype(&prof_stats_mpi_gather) gather;
  decltype(&prof_stats_mpi_finalize) finalize;
};

std::unique_ptr<StatsJob> StatsJob::join(core::Console &console) {
  int rank = 0, size = 1;
  if (!launched(rank, size) || size < 2) return nullptr;
  std::unique_ptr<StatsJob> job(new StatsJob());
  const std::string path = module_path();
  void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  const char *why = handle ? nullptr : ::dlerror();
  const std::string load_error = why ? why : "not found";
  const auto init = symbol<decltype(&prof_stats_mpi_init)>(handle, "prof_stats_mpi_init");
  const auto gather = symbol<decltype(&prof_stats_mpi_gather)>(handle, "prof_stats_mpi_gather");
  const auto finalize =
      symbol<decltype(&prof_stats_mpi_finalize)>(handle, "prof_stats_mpi_finalize");
  if (init && gather && finalize && init(&job->rank_, &job->size_) == 0) {
    job->mpi_ = std::make_unique<Mpi>(gather, finalize);
    return job;
  }
  // Without MPI: rank 0 does everything, the others nothing.
  job->rank_ = rank;
  job->size_ = rank == 0 ? 1 : 0;
  if (rank == 0)
    console.warning("stats: started by an MPI launcher, but " +
                    (handle ? std::string("MPI did not start")
                            : "cannot load " + path + " (" + load_error + ")") +
                    ": this process analyses every report alone");
  return job;
}

StatsJob::~StatsJob() = default;

std::pair<size_t, size_t> StatsJob::share(size_t count) const {
  if (size_ < 1) return {0, 0};
  const auto part = [&](int rank) {
    return static_cast<size_t>(static_cast<unsigned __int128>(count) * static_cast<unsigned>(rank) /
                               static_cast<unsigned>(size_));
  };
  return {part(rank_), part(rank_ + 1)};
}

void StatsJob::gather(std::span<const uint8_t> mine, const Deliver &deliver) {
  if (!mpi_) {
    if (rank_ == 0) deliver(0, mine);
    return;
  }
  struct Context {
    const Deliver &deliver;
  } context{deliver};
  const auto call = [](void *c, int rank, const uint8_t *data, uint64_t size) {
    static_cast<Context *>(c)->deliver(rank, std::span<const uint8_t>(data, size));
  };
  if (mpi_->gather(mine.data(), mine.size(), call, &context) != 0)
    throw std::runtime_error("stats: MPI failed while gathering the ranks' results");
}

} // namespace prof::tool
