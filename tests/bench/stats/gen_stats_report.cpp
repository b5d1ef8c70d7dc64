// Writes a synthetic report for the `prof stats` benchmark: SLICES device
// slices (default 5,000,000) of about 50 kernels and the memory copies
// between them, on 2 devices x 2 clusters x 4 SIPs plus 2 DMA engines per
// device, with realistic durations and idle gaps; a host thread with API
// calls; written in time order per engine, engines interleaved, the way a
// capture drains its rings.
// Usage: gen_stats_report OUTPUT.profrep [SLICES]
#include "core/report/report_writer.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace prof::report;

namespace {

constexpr int kDevices = 2;
constexpr int kClusters = 2;
constexpr int kSips = 4;
constexpr int kDmaEngines = 2;
constexpr int kKernels = 48;

struct Engine {
  uint32_t track;
  bool dma;
  uint64_t now;
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.profrep [SLICES]\n", argv[0]);
    return 2;
  }
  const uint64_t slices = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 5'000'000;

  // Strings: 1 "Operator", 2 "DMA VC Execution", 3 "api", 4 "gcuLaunchKernel",
  // 5.. "Memcpy HtoD", "Memcpy DtoH", "Memcpy DtoD", then the kernels.
  std::vector<std::string> strings = {"Operator",        "DMA VC Execution", "api",
                                      "gcuLaunchKernel", "Memcpy HtoD",      "Memcpy DtoH",
                                      "Memcpy DtoD"};
  const char *const ops[] = {"conv2d_fwd",
                             "conv2d_bwd_data",
                             "conv2d_bwd_filter",
                             "matmul",
                             "batch_norm_training",
                             "batch_norm_grad",
                             "relu_fwd",
                             "relu_bwd",
                             "softmax",
                             "layer_norm",
                             "elementwise_fusion",
                             "reduce_sum",
                             "transpose",
                             "gelu",
                             "dropout",
                             "embedding_lookup"};
  const char *const suffixes[] = {"_dtu", "_dtu_fp16", "_dtu_bf16"};
  for (int k = 0; k < kKernels; ++k)
    strings.push_back(std::string(ops[k % 16]) + suffixes[k / 16]);
  const uint32_t kOperator = 1, kDma = 2, kApi = 3, kLaunch = 4, kMemcpy = 5, kFirstKernel = 8;

  Header header;
  header.session_name = "bench-stats";
  header.argv = {"gen_stats_report"};
  header.command_display = "gen_stats_report";
  header.pids = {4242};
  header.host_name = "bench";
  header.session_start_ns = 1'000'000'000;

  std::vector<TrackRecord> tracks;
  std::vector<Engine> engines;
  uint32_t next_id = 1;
  const auto add = [&](prof_track_kind kind, uint32_t parent, std::string name, int index) {
    TrackRecord t;
    t.id = next_id++;
    t.kind = kind;
    t.parent = parent;
    t.name = std::move(name);
    t.index = index;
    tracks.push_back(t);
    return t.id;
  };
  const uint32_t process = add(PROF_TRACK_PROCESS, 0, "train", -1);
  tracks.back().pid = 4242;
  const uint32_t thread = add(PROF_TRACK_THREAD, process, "main", -1);
  tracks.back().pid = tracks.back().tid = 4242;
  for (int d = 0; d < kDevices; ++d) {
    const uint32_t device = add(PROF_TRACK_DEVICE, 0, "GCU " + std::to_string(d), d);
    for (int c = 0; c < kClusters; ++c) {
      const uint32_t cluster = add(PROF_TRACK_CLUSTER, device, "Cluster " + std::to_string(c), c);
      for (int s = 0; s < kSips; ++s)
        engines.push_back({add(PROF_TRACK_ENGINE, cluster, "SIP " + std::to_string(s), s), false,
                           header.session_start_ns});
    }
    for (int e = 0; e < kDmaEngines; ++e)
      engines.push_back({add(PROF_TRACK_ENGINE, device, "CDMA " + std::to_string(e), e), true,
                         header.session_start_ns});
  }

  ReportWriter writer;
  try {
    writer.open(argv[1], header, true);
    std::vector<std::string_view> views(strings.begin(), strings.end());
    writer.add_strings(1, views);
    writer.add_tracks(tracks);

    // Kernel k lasts about 3us * 1.15^k (3us .. ~2ms), +-25%; a few kernels
    // are hot. Engines idle 0.5-5us between kernels and now and then 1-5ms.
    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<double> base(kKernels);
    for (int k = 0; k < kKernels; ++k)
      base[k] = 3000.0 * std::pow(1.15, k);
    std::vector<double> weights(kKernels);
    for (int k = 0; k < kKernels; ++k)
      weights[k] = 1.0 + 8.0 * ((k * 7) % 5 == 0);
    std::discrete_distribution<int> pick(weights.begin(), weights.end());

    constexpr size_t kBatch = 4096;
    std::vector<prof_event> batch;
    batch.reserve(kBatch);
    uint64_t api_ts = header.session_start_ns;
    for (uint64_t i = 0; i < slices; ++i) {
      Engine &engine = engines[i % engines.size()];
      prof_event e{};
      e.type = PROF_EVENT_SLICE;
      e.track = engine.track;
      const double jitter = 0.75 + 0.5 * unit(random);
      if (engine.dma) {
        const uint32_t which = static_cast<uint32_t>(unit(random) * 3);
        e.name = kMemcpy + which;
        e.category = kDma;
        e.duration = static_cast<uint64_t>(20000 * jitter);
      } else {
        const int k = pick(random);
        e.name = kFirstKernel + static_cast<uint32_t>(k);
        e.category = kOperator;
        e.duration = static_cast<uint64_t>(base[k] * jitter);
      }
      e.id = i + 1;
      e.ts = engine.now;
      const double idle =
          unit(random) < 0.001 ? 1e6 + 4e6 * unit(random) : 500 + 4500 * unit(random);
      engine.now += e.duration + static_cast<uint64_t>(idle);
      batch.push_back(e);
      if (i % 64 == 0) { // a launch call now and then
        prof_event api{};
        api.type = PROF_EVENT_SLICE;
        api.track = thread;
        api.name = kLaunch;
        api.category = kApi;
        api.ts = api_ts;
        api.duration = 2000 + static_cast<uint64_t>(3000 * unit(random));
        api_ts += api.duration + 10000;
        batch.push_back(api);
      }
      if (batch.size() >= kBatch) {
        writer.add_events(batch.data(), batch.size());
        batch.clear();
      }
    }
    writer.add_events(batch.data(), batch.size());
    Footer footer;
    footer.end_ns = api_ts;
    writer.finish(footer);
  } catch (const ReportError &e) {
    std::fprintf(stderr, "gen_stats_report: %s\n", e.what());
    return 1;
  }
  std::printf("%s: %llu device slices, %llu events\n", argv[1],
              static_cast<unsigned long long>(slices),
              static_cast<unsigned long long>(writer.events_written()));
  return 0;
}
