// Writes one rank's synthetic report for run_bench_ranks.sh (see
// tests/support/rank_report.hpp).
// Usage: gen_rank_report OUTPUT.profrep RANK [EVENTS [framework]]
// (framework: steps and operators too, as a framework's source adds them)
#include "tests/support/rank_report.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUTPUT.profrep RANK [EVENTS [framework]]\n", argv[0]);
    return 2;
  }
  const int rank = std::atoi(argv[2]);
  const uint64_t events = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1'000'000;
  try {
    const bool framework = argc > 4 && std::strcmp(argv[4], "framework") == 0;
    prof::testing::write_rank_report(argv[1], rank, events, framework);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "gen_rank_report: %s\n", e.what());
    return 1;
  }
  return 0;
}
