// Export throughput of the sqlite exporter: 1 M slices (and a mix of every
// event kind) through begin/consume/end into a database file, as
// `prof export --type sqlite` does after the report is read. Reports events
// per second and the database's bytes per event (indexes included).
#include "sqlite_exporter.hpp"

#include <prof/testing/fake_export_host.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using prof::testing::FakeExportHost;

constexpr size_t kEvents = 1'000'000;
constexpr size_t kBatch = 4096; // what the report replay hands exporters

/// A capture's worth of events: host API calls on 4 threads, each with the
/// kernel it launched on one of 8 engines of a device (200 kernel names).
struct Capture {
  explicit Capture(bool mixed) {
    const prof_track_id process = host.add_track(PROF_TRACK_PROCESS, "train", 0, 100);
    const prof_track_id device = host.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
    std::vector<prof_track_id> threads, engines;
    for (int i = 0; i < 4; ++i)
      threads.push_back(
          host.add_track(PROF_TRACK_THREAD, "worker " + std::to_string(i), process, 100, 100 + i));
    for (int i = 0; i < 8; ++i)
      engines.push_back(
          host.add_track(PROF_TRACK_ENGINE, "SIP " + std::to_string(i), device, 0, 0, i));
    const prof_track_id power = host.add_track(PROF_TRACK_COUNTER, "power", device, 0, 0, -1, "W");
    const prof_stack_id stack = host.add_stack({"matmul", "forward", "step", "main"});
    std::vector<std::string> kernels;
    for (int i = 0; i < 200; ++i)
      kernels.push_back("kernel_" + std::to_string(i));
    events.reserve(kEvents);
    uint64_t ts = 1'000'000'000'000;
    for (uint64_t i = 0; events.size() < kEvents; ++i) {
      ts += 1000 + i % 700;
      const uint64_t correlation = i / 2 + 1;
      if (mixed && i % 10 == 7) {
        events.push_back(host.counter(power, ts, 40.0 + static_cast<double>(i % 50)));
      } else if (mixed && i % 10 == 8) {
        events.push_back(host.sample(threads[i % 4], ts, stack));
      } else if (mixed && i % 10 == 9) {
        events.push_back(host.flow(threads[i % 4], ts, correlation, PROF_FLOW_BEGIN));
      } else if (i % 2 == 0) {
        events.push_back(
            host.slice(threads[i % 4], "launch", ts, 2000 + i % 300, "api", correlation));
      } else {
        events.push_back(host.slice(engines[i % 8], kernels[i % 200], ts, 5000 + i % 4000, "kernel",
                                    correlation));
      }
    }
  }
  FakeExportHost host;
  std::vector<prof_event> events;
};

void export_events(benchmark::State &state, bool mixed) {
  Capture capture(mixed);
  const fs::path dir =
      fs::temp_directory_path() / ("prof-bench-sqlite-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / "bench.sqlite";
  capture.host.set_option("path", path.string());
  capture.host.set_option("overwrite", "true");
  uint64_t bytes = 0;
  for (auto _ : state) {
    prof::sqlite::SqliteExporter exporter(capture.host.host());
    bool ok = exporter.begin();
    for (size_t done = 0; ok && done < capture.events.size(); done += kBatch)
      ok = exporter.consume(capture.events.data() + done,
                            std::min(kBatch, capture.events.size() - done));
    ok = ok && exporter.end();
    if (!ok) {
      state.SkipWithError("export failed");
      break;
    }
    state.PauseTiming();
    bytes = fs::file_size(path);
    fs::remove(path);
    state.ResumeTiming();
  }
  fs::remove_all(dir);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * capture.events.size()));
  state.counters["bytes_per_event"] =
      static_cast<double>(bytes) / static_cast<double>(capture.events.size());
}

/// 1 M slices: half API calls, half kernels, all correlated.
void BM_SqliteExportSlices(benchmark::State &state) { export_events(state, false); }
/// 1 M events: 70% slices, 10% each counters, CPU samples and flows.
void BM_SqliteExportMixed(benchmark::State &state) { export_events(state, true); }

BENCHMARK(BM_SqliteExportSlices)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SqliteExportMixed)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
