#include "tests/support/synthetic_job.hpp"

#include "core/report/report_writer.hpp"

#include <prof/testing/test_events.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace prof::testing {

using namespace prof::report;

namespace {

constexpr uint64_t kUs = 1000;
constexpr uint64_t kKernelNs = 1000 * kUs, kKernelJitter = 200 * kUs;
constexpr uint64_t kExchangeNs = 200 * kUs, kExchangeJitter = 100 * kUs;
constexpr uint64_t kOperatorNs = 50 * kUs, kOperatorJitter = 100 * kUs;
constexpr uint64_t kLaunchGapNs = 20 * kUs;
constexpr uint64_t kReduceNs = 300 * kUs, kStepGapNs = 100 * kUs;
constexpr double kMemoryPeak = 30.0 * (1ull << 30), kMemoryJitter = 4.0 * (1 << 20);
constexpr uint64_t kRealtimeStart = 1'700'000'000'000'000'000ull;
constexpr uint64_t kMonotonicStart = 1'000'000'000'000ull;

/// A random number from its coordinates (splitmix64), so that every rank's
/// durations can be worked out again when its report is written.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
uint64_t jitter(uint64_t seed, uint64_t a, uint64_t b, uint64_t c, uint64_t range) {
  return mix(seed ^ mix(a ^ mix(b ^ mix(c)))) % (range + 1);
}

int node_of(int rank) { return rank / kRanksPerNode; }

std::string node_name(int node) {
  char text[32];
  std::snprintf(text, sizeof text, "node%03d", node);
  return text;
}

/// The node's realtime clock error under node-clock-skew: up to +-50 ms.
int64_t clock_skew(const SyntheticJob &job, int node) {
  if (job.cause != JobCause::node_clock_skew) return 0;
  return (static_cast<int64_t>(mix(job.seed + static_cast<uint64_t>(node)) % 101) - 50) * 1'000'000;
}

struct Resolved {
  SyntheticJob job;
  std::vector<int> slow; ///< ranks whose kernels are slow (per step, see slow_in)
  int link_a = -1, link_b = -1;
};

Resolved resolve(const SyntheticJob &job) {
  if (job.ranks < 3) throw std::runtime_error("a synthetic job needs 3 ranks or more");
  Resolved r{job, {}, -1, -1};
  const int nodes = (job.ranks + kRanksPerNode - 1) / kRanksPerNode;
  switch (job.cause) {
  case JobCause::slow_rank:
  case JobCause::periodic_rank: {
    const int rank = job.target >= 0 ? job.target
                                     : (job.cause == JobCause::slow_rank ? job.ranks / 2 + 3
                                                                         : job.ranks / 4 + 1);
    r.slow = {rank % job.ranks};
    break;
  }
  case JobCause::slow_node: {
    const int node = (job.target >= 0 ? job.target : nodes * 3 / 4) % nodes;
    for (int rank = node * kRanksPerNode; rank < std::min(job.ranks, (node + 1) * kRanksPerNode);
         ++rank)
      r.slow.push_back(rank);
    break;
  }
  case JobCause::slow_link: {
    r.link_a = (job.target >= 0 ? job.target : job.ranks / 3 + 2) % job.ranks;
    r.link_b = exchange_partner(r.link_a, job.ranks);
    if (r.link_b == r.link_a) throw std::runtime_error("slow-link: that rank has no partner");
    break;
  }
  default:
    break;
  }
  return r;
}

/// The extra time `rank`'s kernels take in `step`, spread over its kernels.
uint64_t slowdown(const Resolved &r, int rank, int step) {
  if (std::find(r.slow.begin(), r.slow.end(), rank) == r.slow.end()) return 0;
  if (r.job.cause == JobCause::periodic_rank && step % r.job.period != r.job.period - 1) return 0;
  return r.job.delay_ns;
}

uint64_t exchange_ns(const Resolved &r, int rank, int step) {
  const uint64_t base = kExchangeNs + jitter(r.job.seed, 1, rank, step, kExchangeJitter);
  return base + (rank == r.link_a || rank == r.link_b ? r.job.delay_ns : 0);
}

uint64_t kernel_ns(const Resolved &r, int rank, int step, int kernel) {
  const int kernels = r.job.buckets * r.job.kernels_per_bucket;
  return kKernelNs + jitter(r.job.seed, 2, rank, step * 1000 + kernel, kKernelJitter) +
         slowdown(r, rank, step) / static_cast<uint64_t>(kernels);
}

uint64_t operator_ns(const Resolved &r, int rank, int step, int kernel) {
  return kOperatorNs + jitter(r.job.seed, 3, rank, step * 1000 + kernel, kOperatorJitter);
}

/// The time one bucket of kernels takes on `rank`.
uint64_t bucket_ns(const Resolved &r, int rank, int step, int bucket) {
  uint64_t ns = 0;
  for (int k = 0; k < r.job.kernels_per_bucket; ++k)
    ns += kernel_ns(r, rank, step, bucket * r.job.kernels_per_bucket + k) + kLaunchGapNs;
  return ns;
}

/// When each all_reduce ends and each step starts, on the job's true clock
/// (0: the first step's start): the ranks' arrivals worked out together.
struct Schedule {
  std::vector<uint64_t> step_start; ///< per step
  std::vector<uint64_t> reduce_end; ///< per all_reduce (step x buckets)
};

Schedule schedule(const Resolved &r) {
  Schedule s;
  const int ranks = r.job.ranks;
  std::vector<uint64_t> at(static_cast<size_t>(ranks));
  uint64_t start = 0;
  for (int step = 0; step < r.job.steps; ++step) {
    s.step_start.push_back(start);
    for (int rank = 0; rank < ranks; ++rank)
      at[static_cast<size_t>(rank)] =
          start +
          std::max(exchange_ns(r, rank, step), exchange_ns(r, exchange_partner(rank, ranks), step));
    uint64_t end = 0;
    for (int bucket = 0; bucket < r.job.buckets; ++bucket) {
      uint64_t last = 0;
      for (int rank = 0; rank < ranks; ++rank)
        last = std::max(last, at[static_cast<size_t>(rank)] += bucket_ns(r, rank, step, bucket));
      end = last + kReduceNs;
      s.reduce_end.push_back(end);
      std::fill(at.begin(), at.end(), end);
    }
    start = end + kStepGapNs;
  }
  return s;
}

// String ids of one rank's report.
enum : uint32_t {
  kStepName = 1,
  kTorch,
  kNccl,
  kAllReduce,
  kSend,
  kRecv,
  kCommunicatorKey,
  kSequenceKey,
  kBytesKey,
  kPeerKey,
  kPassKey,
  kForward,
  kBackward,
  kWorld,
  kMm,
  kMmBackward,
  kGemm,
  kMemoryCategory,
  kPairCommunicator,
  kStringCount
};
enum : uint32_t { kProcess = 1, kMain, kDevice, kStream, kMemoryUsed };

void write_rank(const Resolved &r, const Schedule &s, int rank, const std::string &path) {
  const int node = node_of(rank);
  const int local = rank % kRanksPerNode;
  const int pid = 30000 + local; // pids repeat across nodes, as on a real cluster
  // Each node's monotonic clock started at its own time.
  const uint64_t mono = kMonotonicStart + static_cast<uint64_t>(node) * 7'300'000'000ull;
  Header header;
  header.session_name = "synthetic-job";
  header.argv = {"python3", "train.py"};
  header.command_display = "python3 train.py";
  header.pids = {pid};
  header.host_name = node_name(node);
  header.rank = std::to_string(rank);
  header.world_size = std::to_string(r.job.ranks);
  header.session_start_ns = mono;
  header.clock_anchor = {
      static_cast<uint64_t>(static_cast<int64_t>(kRealtimeStart) + clock_skew(r.job, node)), mono};

  const int partner = exchange_partner(rank, r.job.ranks);
  const int low = std::min(rank, partner), high = std::max(rank, partner);
  std::vector<std::string> strings = {"step",
                                      "torch",
                                      "nccl",
                                      "all_reduce",
                                      "send",
                                      "recv",
                                      "communicator",
                                      "sequence",
                                      "bytes",
                                      "peer",
                                      "pass",
                                      "forward",
                                      "backward",
                                      "world",
                                      "aten::mm",
                                      "MmBackward0",
                                      "sm90_xmma_gemm_f16f16_f32",
                                      "memory",
                                      "pp." + std::to_string(low) + "." + std::to_string(high)};
  std::vector<std::string_view> views(strings.begin(), strings.end());
  const std::string process_name = "python3 train.py (rank " + std::to_string(rank) + ")";
  const std::vector<TrackRecord> tracks = {
      {kProcess, PROF_TRACK_PROCESS, 0, process_name, pid, 0, -1, "", PROF_CLOCK_SESSION},
      {kMain, PROF_TRACK_THREAD, kProcess, "python3", pid, pid, -1, "", PROF_CLOCK_SESSION},
      {kDevice, PROF_TRACK_DEVICE, 0, "GPU " + std::to_string(local), 0, 0, local, "",
       PROF_CLOCK_SESSION},
      {kStream, PROF_TRACK_ENGINE, kDevice, "stream 7", pid, 0, 7, "", PROF_CLOCK_SESSION},
      {kMemoryUsed, PROF_TRACK_COUNTER, kDevice, "Memory used", 0, 0, -1, "bytes",
       PROF_CLOCK_SESSION}};

  ReportWriter writer;
  writer.open(path, header, true);
  writer.add_strings(1, views);
  writer.add_tracks(tracks);

  std::vector<prof_event> events;
  std::vector<ArgsRecord> sets;
  const auto slice = [&](uint16_t kind, uint32_t track, uint32_t name, uint32_t category,
                         uint64_t ts, uint64_t duration, uint64_t args) {
    prof_event e = testing::slice(track, mono + ts, duration, name, category);
    e.kind = kind;
    e.args = args;
    events.push_back(e);
  };
  const auto set = [&](std::vector<prof_arg> args) {
    const auto id = static_cast<uint32_t>(sets.size() + 1);
    sets.push_back({id, std::move(args)});
    return id;
  };
  const uint32_t forward = set({{kPassKey, PROF_ARG_STRING, {.s = kForward}}});
  const uint32_t backward = set({{kPassKey, PROF_ARG_STRING, {.s = kBackward}}});
  const int kernels = r.job.buckets * r.job.kernels_per_bucket;
  for (int step = 0; step < r.job.steps; ++step) {
    const uint64_t start = s.step_start[static_cast<size_t>(step)];
    // The exchange ends for both when the slower side is done.
    const uint64_t exchange_end =
        start + std::max(exchange_ns(r, rank, step), exchange_ns(r, partner, step));
    slice(PROF_CATEGORY_COMMUNICATION, kMain, rank == low ? kSend : kRecv, kNccl, start,
          exchange_end - start,
          set({{kCommunicatorKey, PROF_ARG_STRING, {.s = kPairCommunicator}},
               {kSequenceKey, PROF_ARG_UINT, {.u = static_cast<uint64_t>(step)}},
               {kBytesKey, PROF_ARG_UINT, {.u = 8u << 20}},
               {kPeerKey, PROF_ARG_UINT, {.u = static_cast<uint64_t>(partner)}}}));
    uint64_t now = exchange_end;
    double memory = 2.0 * (1ull << 30);
    for (int bucket = 0; bucket < r.job.buckets; ++bucket) {
      for (int k = 0; k < r.job.kernels_per_bucket; ++k) {
        const int kernel = bucket * r.job.kernels_per_bucket + k;
        const bool is_forward = kernel < kernels / 2;
        slice(PROF_CATEGORY_OPERATOR, kMain, is_forward ? kMm : kMmBackward, kTorch, now,
              operator_ns(r, rank, step, kernel), is_forward ? forward : backward);
        const uint64_t duration = kernel_ns(r, rank, step, kernel);
        slice(PROF_CATEGORY_KERNEL, kStream, kGemm, kTorch, now + kLaunchGapNs / 2, duration, 0);
        now += duration + kLaunchGapNs;
      }
      const size_t reduce = static_cast<size_t>(step * r.job.buckets + bucket);
      const uint64_t end = s.reduce_end[reduce];
      if (bucket == r.job.buckets - 1)
        slice(PROF_CATEGORY_ANNOTATION, kMain, kStepName, kTorch, start, now - start,
              set({{kStepName, PROF_ARG_UINT, {.u = static_cast<uint64_t>(step + 1)}}}));
      slice(PROF_CATEGORY_COMMUNICATION, kMain, kAllReduce, kNccl, now, end - now,
            set({{kCommunicatorKey, PROF_ARG_STRING, {.s = kWorld}},
                 {kSequenceKey, PROF_ARG_UINT, {.u = reduce}},
                 {kBytesKey, PROF_ARG_UINT, {.u = 25u << 20}}}));
      now = end;
      memory += (kMemoryPeak - 2.0 * (1ull << 30)) / r.job.buckets;
      prof_event sample{};
      sample.type = PROF_EVENT_COUNTER;
      sample.track = kMemoryUsed;
      sample.name = kMemoryCategory;
      sample.ts = mono + now;
      sample.value = memory - static_cast<double>(jitter(r.job.seed, 4, rank, reduce,
                                                         static_cast<uint64_t>(kMemoryJitter)));
      events.push_back(sample);
    }
  }
  writer.add_args(sets);
  writer.add_events(events.data(), events.size());
  writer.finish({mono + s.step_start.back() + 1'000'000'000ull, events.size(), 0, 0, false, 0});
}

} // namespace

std::optional<JobCause> parse_job_cause(std::string_view name) {
  for (JobCause cause : {JobCause::none, JobCause::slow_rank, JobCause::slow_node,
                         JobCause::periodic_rank, JobCause::slow_link, JobCause::node_clock_skew})
    if (name == job_cause_name(cause)) return cause;
  return std::nullopt;
}

const char *job_cause_name(JobCause cause) {
  switch (cause) {
  case JobCause::none:
    return "none";
  case JobCause::slow_rank:
    return "slow-rank";
  case JobCause::slow_node:
    return "slow-node";
  case JobCause::periodic_rank:
    return "periodic-rank";
  case JobCause::slow_link:
    return "slow-link";
  case JobCause::node_clock_skew:
    return "node-clock-skew";
  }
  return "";
}

int exchange_partner(int rank, int ranks) {
  if ((rank ^ kRanksPerNode) < ranks) return rank ^ kRanksPerNode;
  if ((rank ^ 1) < ranks) return rank ^ 1;
  return rank;
}

std::vector<int> affected_ranks(const SyntheticJob &job) {
  const Resolved r = resolve(job);
  if (job.cause == JobCause::slow_link) {
    std::vector<int> pair = {r.link_a, r.link_b};
    std::sort(pair.begin(), pair.end());
    return pair;
  }
  return r.slow;
}

void write_synthetic_job(const SyntheticJob &job, const std::string &folder, unsigned threads) {
  const Resolved r = resolve(job);
  const Schedule s = schedule(r);
  std::filesystem::create_directories(folder);
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<int> next{0};
  std::exception_ptr failure;
  std::mutex failure_lock;
  const auto work = [&] {
    for (int rank; (rank = next++) < job.ranks;) {
      char name[32];
      std::snprintf(name, sizeof name, "rank%05d.profrep", rank);
      try {
        write_rank(r, s, rank, folder + "/" + name);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_lock);
        if (!failure) failure = std::current_exception();
        next = job.ranks;
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
  if (failure) std::rethrow_exception(failure);
}

} // namespace prof::testing
