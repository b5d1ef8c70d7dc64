#include "tests/support/rank_report.hpp"

#include "core/report/report_writer.hpp"

#include <random>
#include <string_view>
#include <vector>

namespace prof::testing {

using namespace prof::report;

void write_rank_report(const std::string &path, int rank, uint64_t events, bool framework) {
  const int pid = 10000 + rank;

  Header header;
  header.session_name = "bench-ranks";
  header.argv = {"train"};
  header.command_display = "train";
  header.pids = {pid};
  header.host_name = "node" + std::to_string(rank / 8);
  header.rank = std::to_string(rank);
  header.session_start_ns = 1'000'000'000;
  header.clock_anchor = {1'700'000'000'000'000'000ull, header.session_start_ns};

  // Strings: 1 "Operator", 2 "mpi", 3 "MPI_Allreduce", 4 "communicator",
  // 5 "world", 6 "sequence", 7 "bytes", 8.. the kernels, then the
  // framework's (kFramework..).
  std::vector<std::string> strings = {"Operator", "mpi",      "MPI_Allreduce", "communicator",
                                      "world",    "sequence", "bytes"};
  constexpr int kKernels = 16;
  for (int k = 0; k < kKernels; ++k)
    strings.push_back("kernel_" + std::to_string(k));
  const auto kFramework = static_cast<uint32_t>(strings.size() + 1);
  const uint32_t kTorch = kFramework, kStep = kFramework + 1, kMm = kFramework + 2,
                 kMmBackward = kFramework + 3, kPass = kFramework + 4, kForward = kFramework + 5,
                 kBackward = kFramework + 6, kSelf = kFramework + 7, kShapes = kFramework + 8,
                 kSmall = kFramework + 9, kLarge = kFramework + 10;
  for (const char *text :
       {"torch", "step", "aten::mm", "MmBackward0", "pass", "forward", "backward", "self",
        "input shapes", "[[64, 64], [64, 64]]", "[[128, 64], [64, 64]]"})
    strings.emplace_back(text);
  // Argument sets: 1.. the all-reduces'; the framework's from kFrameworkSets on.
  constexpr uint32_t kFrameworkSets = 1u << 30;
  const uint32_t kOperatorSets = kFrameworkSets;
  const std::vector<TrackRecord> tracks = {
      {1, PROF_TRACK_PROCESS, 0, "train (rank " + std::to_string(rank) + ")", pid, 0, -1, "",
       PROF_CLOCK_SESSION},
      {2, PROF_TRACK_THREAD, 1, "main", pid, pid, -1, "", PROF_CLOCK_SESSION},
      {3, PROF_TRACK_DEVICE, 0, "GPU 0", 0, 0, 0, "", PROF_CLOCK_SESSION}};

  ReportWriter writer;
  writer.open(path, header, true);
  std::vector<std::string_view> views(strings.begin(), strings.end());
  writer.add_strings(1, views);
  writer.add_tracks(tracks);
  std::mt19937_64 random(rank);
  std::uniform_int_distribution<uint64_t> jitter(0, 2000);
  // Every rank starts a step together and leaves its all-reduce together,
  // when the last has arrived: at most 16 x 23 us of kernels after the
  // start, and 2 ms more for the steps rank 1 is late to.
  constexpr uint64_t kStepCompute = kKernels * 23'000, kLate = 2'000'000, kReduce = 50'000;
  uint64_t step_start = header.session_start_ns;
  uint64_t written = 0, step = 0;
  std::vector<prof_event> batch;
  std::vector<ArgsRecord> sets;
  if (framework)
    for (uint32_t k = 0; k < kKernels; ++k) {
      const bool forward = k < kKernels / 2;
      sets.push_back({kOperatorSets + k,
                      {prof_arg{kPass, PROF_ARG_STRING, {.s = forward ? kForward : kBackward}},
                       prof_arg{kSelf, PROF_ARG_UINT, {.u = 300 + 10 * k}},
                       prof_arg{kShapes, PROF_ARG_STRING, {.s = k % 2 ? kLarge : kSmall}}}});
    }
  while (written < events) {
    uint64_t now = step_start;
    for (int k = 0; k < kKernels && written < events; ++k, ++written) {
      if (framework) {
        prof_event op{};
        op.type = PROF_EVENT_SLICE;
        op.kind = PROF_CATEGORY_OPERATOR;
        op.track = 2;
        op.name = k < kKernels / 2 ? kMm : kMmBackward;
        op.category = kTorch;
        op.ts = now;
        op.duration = 800;
        op.args = kOperatorSets + static_cast<uint32_t>(k);
        batch.push_back(op);
      }
      prof_event e{};
      e.type = PROF_EVENT_SLICE;
      e.kind = PROF_CATEGORY_KERNEL;
      e.track = 3;
      e.name = 8 + k;
      e.category = 1;
      e.ts = now;
      e.duration = 20'000 + jitter(random);
      now += e.duration + 1'000;
      batch.push_back(e);
    }
    if (written >= events) break;
    const bool late_step = step % 10 == 9;
    if (rank == 1 && late_step) now += kLate;
    if (framework) {
      const auto set = static_cast<uint32_t>(kFrameworkSets + kKernels + step);
      sets.push_back({set, {prof_arg{kStep, PROF_ARG_UINT, {.u = step + 1}}}});
      prof_event e{};
      e.type = PROF_EVENT_SLICE;
      e.kind = PROF_CATEGORY_ANNOTATION;
      e.track = 2;
      e.name = kStep;
      e.category = kTorch;
      e.ts = step_start;
      e.duration = now - step_start;
      e.args = set;
      batch.push_back(e);
    }
    const uint64_t end = step_start + kStepCompute + (late_step ? kLate : 0) + kReduce;
    const auto set = static_cast<uint32_t>(step + 1);
    sets.push_back(
        {set,
         {prof_arg{4, PROF_ARG_STRING, {.s = 5}}, prof_arg{6, PROF_ARG_UINT, {.u = step}},
          prof_arg{7, PROF_ARG_UINT, {.u = 4u << 20}}}});
    prof_event e{};
    e.type = PROF_EVENT_SLICE;
    e.kind = PROF_CATEGORY_COMMUNICATION;
    e.track = 2;
    e.name = 3;
    e.category = 2;
    e.ts = now;
    e.duration = end - now;
    e.args = set;
    batch.push_back(e);
    step_start = end + 1'000;
    ++written;
    ++step;
    if (batch.size() >= 65536) {
      writer.add_args(sets);
      writer.add_events(batch.data(), batch.size());
      sets.clear();
      batch.clear();
    }
  }
  writer.add_args(sets);
  writer.add_events(batch.data(), batch.size());
  writer.finish({step_start, written, 0, 0, false, 0});
}

} // namespace prof::testing
