// A synthetic training job of many ranks with one known cause of slowness,
// one prof report per rank as captures under a launcher write them: host
// node000, node001, ... (8 ranks a node), the rank in the header and in the
// process's name (" (rank 12)"), a realtime anchor.
//
// Each step of each rank: a point-to-point exchange with its partner (the
// rank 8 apart, on the next node; communicator "pp.A.B", sequence the
// step), then `buckets` rounds of `kernels_per_bucket` kernels (each launched
// by a framework operator on the main thread) followed by an all_reduce on
// communicator "world" (sequence counts the job's all_reduces). Every rank
// leaves an all_reduce together, 300 us after the last arrives. A step is an
// annotation slice "step" with its `step` argument, from the step's start to
// the rank's arrival at its last all_reduce. Each device has a "Memory
// used" counter that peaks near 30 GiB. Ordinary jitter: up to 200 us per
// kernel, 100 us per exchange and operator, 4 MiB of memory.
//
// Causes: slow-rank (one rank's kernels take `delay_ns` more per step),
// slow-node (the same for a node's 8 ranks), periodic-rank (one rank, every
// `period`th step only), slow-link (the exchange between one pair of ranks
// takes `delay_ns` longer), node-clock-skew (each node's realtime clock is
// off by up to +-50 ms: nothing is slow, and a merge aligned on collective
// operations shows nothing).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::testing {

enum class JobCause { none, slow_rank, slow_node, periodic_rank, slow_link, node_clock_skew };

/// "slow-rank" and so on; nullopt for an unknown name.
std::optional<JobCause> parse_job_cause(std::string_view name);
const char *job_cause_name(JobCause cause);

struct SyntheticJob {
  int ranks = 64;
  int steps = 12;
  int buckets = 4;
  int kernels_per_bucket = 2;
  JobCause cause = JobCause::none;
  uint64_t delay_ns = 12'000'000; ///< what the cause adds per step
  int period = 4;                 ///< periodic-rank: slow every this many steps
  uint64_t seed = 1;
  /// The rank (slow-rank, periodic-rank, the link's first end) or node
  /// (slow-node) the cause hits; -1 chooses one from `ranks`.
  int target = -1;
};

inline constexpr int kRanksPerNode = 8;

/// What the cause hits: the ranks, in order (empty for none and skew).
std::vector<int> affected_ranks(const SyntheticJob &job);

/// The partner of `rank` in the point-to-point exchange.
int exchange_partner(int rank, int ranks);

/// Writes `folder`/rank00000.profrep, ... (the folder is made), with up to
/// `threads` threads (0: the hardware's). Throws std::runtime_error or
/// report::ReportError.
void write_synthetic_job(const SyntheticJob &job, const std::string &folder, unsigned threads = 0);

} // namespace prof::testing
