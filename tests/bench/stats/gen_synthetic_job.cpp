// Writes a synthetic job of many ranks with one known cause of slowness
// (tests/support/synthetic_job.hpp), one report per rank, and prints the
// ranks the cause hits.
// Usage: gen_synthetic_job FOLDER --ranks N --cause CAUSE [--steps N]
//        [--delay-ms MS] [--period N] [--target RANK_OR_NODE] [--seed N]
#include "tests/support/synthetic_job.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

constexpr const char *kUsage =
    "usage: gen_synthetic_job FOLDER [--ranks N] [--cause "
    "none|slow-rank|slow-node|periodic-rank|slow-link|node-clock-skew] [--steps N] "
    "[--delay-ms MS] [--period N] [--target RANK_OR_NODE] [--seed N]\n";

int usage(const std::string &problem) {
  std::fprintf(stderr, "gen_synthetic_job: %s\n%s", problem.c_str(), kUsage);
  return 2;
}

/// A whole number in [low, high] or nullopt.
bool number(const char *text, long long low, long long high, long long &out) {
  char *end = nullptr;
  out = std::strtoll(text, &end, 10);
  return end != text && *end == '\0' && out >= low && out <= high;
}

} // namespace

int main(int argc, char **argv) {
  prof::testing::SyntheticJob job;
  std::string folder;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (!arg.starts_with("--")) {
      if (!folder.empty()) return usage("one output folder only, got '" + arg + "' too");
      folder = arg;
      continue;
    }
    if (i + 1 >= argc) return usage(arg + " needs a value");
    const char *value = argv[++i];
    long long n = 0;
    if (arg == "--cause") {
      const auto cause = prof::testing::parse_job_cause(value);
      if (!cause) return usage(std::string("--cause: unknown cause '") + value + "'");
      job.cause = *cause;
    } else if (arg == "--ranks" && number(value, 3, 1 << 20, n)) {
      job.ranks = static_cast<int>(n);
    } else if (arg == "--steps" && number(value, 1, 100000, n)) {
      job.steps = static_cast<int>(n);
    } else if (arg == "--delay-ms" && number(value, 0, 100000, n)) {
      job.delay_ns = static_cast<uint64_t>(n) * 1'000'000;
    } else if (arg == "--period" && number(value, 1, 100000, n)) {
      job.period = static_cast<int>(n);
    } else if (arg == "--target" && number(value, 0, 1 << 20, n)) {
      job.target = static_cast<int>(n);
    } else if (arg == "--seed" && number(value, 0, 1ll << 62, n)) {
      job.seed = static_cast<uint64_t>(n);
    } else {
      return usage(arg + ": unknown option or bad value '" + value + "'");
    }
  }
  if (folder.empty()) return usage("give the output folder");
  try {
    const auto start = std::chrono::steady_clock::now();
    prof::testing::write_synthetic_job(job, folder);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string ranks;
    for (const int rank : prof::testing::affected_ranks(job))
      ranks += (ranks.empty() ? "" : ",") + std::to_string(rank);
    std::printf("%d ranks, cause %s, ranks hit: %s (%.2f s)\n", job.ranks,
                prof::testing::job_cause_name(job.cause), ranks.empty() ? "none" : ranks.c_str(),
                seconds);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "gen_synthetic_job: %s\n", e.what());
    return 1;
  }
  return 0;
}
