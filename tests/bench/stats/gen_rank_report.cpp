// Writes one rank's synthetic report for run_bench_ranks.sh (see
// tests/support/rank_report.hpp).
// Usage: gen_rank_report OUTPUT.profrep RANK [EVENTS]
#include "tests/support/rank_report.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUTPUT.profrep RANK [EVENTS]\n", argv[0]);
    return 2;
  }
  const int rank = std::atoi(argv[2]);
  const uint64_t events = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1'000'000;
  try {
    prof::testing::write_rank_report(argv[1], rank, events);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "gen_rank_report: %s\n", e.what());
    return 1;
  }
  return 0;
}
