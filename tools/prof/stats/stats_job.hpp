// The processes of one `prof stats` started by an MPI launcher
// (`mpirun -np K prof stats ...`): each computes a share, rank 0 gathers
// the shares and prints. MPI comes from libprof-stats-mpi, loaded at run
// time.
#pragma once

#include "core/plugin_host/console.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

namespace prof::tool {

class StatsJob {
public:
  /// The job this process belongs to; nullptr when no MPI launcher started
  /// more than one process. Where MPI cannot be used (libprof-stats-mpi not
  /// built or MPI_Init failing) rank 0 (by the launcher's variables) is
  /// alone and works on everything, the others have nothing to do: the
  /// result is the same.
  static std::unique_ptr<StatsJob> join(core::Console &console);
  /// This process's rank by the launcher's variables; -1 when no MPI
  /// launcher started more than one process.
  static int launcher_rank();
  ~StatsJob();

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Rank 0 and a process on its own print; the others only compute.
  bool prints() const { return rank_ == 0; }
  /// Whether this process has a share at all (false: it can exit at once).
  bool works() const { return rank_ < size_; }

  /// The block [first, last) of `count` items that is this rank's share.
  std::pair<size_t, size_t> share(size_t count) const;

  using Deliver = std::function<void(int rank, std::span<const uint8_t>)>;
  /// Every rank gives its bytes; at rank 0 `deliver` gets each rank's, in
  /// rank order. Throws std::runtime_error when MPI fails.
  void gather(std::span<const uint8_t> mine, const Deliver &deliver);

private:
  StatsJob() = default;
  struct Mpi;
  std::unique_ptr<Mpi> mpi_; // null: MPI not in use
  int rank_ = 0, size_ = 1;
};

} // namespace prof::tool
