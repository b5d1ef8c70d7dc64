// One rank's synthetic report: EVENTS events of a training loop on one
// device, steps of 16 kernels (device compute) then one all-reduce (a
// communication slice on the main thread with communicator "world", its
// sequence and bytes); the ranks start each step together and leave each
// all-reduce together; rank 1 is 2 ms late to every 10th all-reduce. Header
// with the rank and a realtime anchor, as a capture under a launcher writes
// it. For run_bench_ranks.sh (gen_rank_report) and the cross-rank tests.
// With `framework`, also what a framework's source adds (event.h, ABI 1.8):
// each step's compute as an annotation slice "step" with its `step`
// argument (1, 2, ...) on the main thread, from the step's start to the
// rank's arrival at its all-reduce (so rank 1's every 10th step is 2 ms
// longer), and before each kernel the operator that launched it, forward
// for the first half of a step's kernels and backward for the rest; these
// events come beyond EVENTS.
#pragma once

#include <cstdint>
#include <string>

namespace prof::testing {

/// Writes the report to `path`; throws report::ReportError.
void write_rank_report(const std::string &path, int rank, uint64_t events, bool framework = false);

} // namespace prof::testing
