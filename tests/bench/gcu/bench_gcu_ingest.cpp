// Device records ingested per second: from a driver's delivery callback
// through the gcu plugin (tracks, clock domain, names), the host API and the
// event rings, to the report file, as in a capture. The driver is a stand-in
// defined here, so the figure is prof's cost alone, not a device model's.
#include "core/events/event_bus.hpp"
#include "core/events/event_pump.hpp"
#include "core/events/report_sink.hpp"
#include "core/plugin_host/plugin_registry.hpp"
#include "core/plugin_host/source_instance.hpp"
#include "core/report/report_writer.hpp"
#include "core/runtime/session_clock.hpp"

#include <prof/gcu_driver.h>

#include "tests/support/build_paths.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <unistd.h>

namespace {

constexpr const char *kSipActivities[] = {"SIP Busy"};
constexpr const char *kGeneralActivities[] = {"Task Pipeline", "Launch Kernel", "Operator"};
constexpr const char *kFunctions[] = {"gcuLaunchKernel"};
constexpr prof_gcu_group_desc kGroups[] = {{"Cluster", 4}};
constexpr prof_gcu_engine_desc kEngines[] = {
    {"SIP", 0, 6, kSipActivities, 1, nullptr, 0},
    {"General", -1, 1, kGeneralActivities, 3, nullptr, 0},
};
constexpr prof_gcu_api_domain kDomains[] = {{"RUNTIME", kFunctions, 1}};
constexpr prof_gcu_topology kTopology = {sizeof(prof_gcu_topology), 1, kGroups, 1, kEngines, 2,
                                         kDomains, 1};

// What the stand-in driver was given by the plugin.
prof_gcu_capture_config g_capture{};

uint64_t now_ns() { return prof::core::session_now_ns(); }

const prof_gcu_driver kDriver = {
    sizeof(prof_gcu_driver),
    PROF_GCU_DRIVER_MAJOR,
    PROF_GCU_DRIVER_MINOR,
    "bench",
    "1",
    [] { return &kTopology; },
    [](uint32_t) { return 1e9; },
    [](uint32_t, uint64_t *host, uint64_t *ticks) {
      *host = now_ns();
      *ticks = *host + 1000000000000ull;
      return 0;
    },
    [](uint32_t id) { return id == 1 ? "common20_conv_dtu" : "dot_dtu"; },
    [](const prof_gcu_capture_config *config, uint32_t *handle, char *, size_t) {
      g_capture = *config;
      *handle = 1;
      return 0;
    },
    [](uint32_t, int) {},
    [](uint32_t) {},
    [](uint32_t) { g_capture = {}; },
    [](uint32_t, uint32_t, prof_gcu_buffer_stats *out) {
      *out = {sizeof(prof_gcu_buffer_stats), 0, 0, 0};
      return 0;
    },
    [](uint32_t, int32_t, uint32_t, uint64_t *busy, uint32_t *units) {
      *busy = 0;
      *units = 6;
      return 0;
    },
};

// A training step's mix: per kernel one Operator (labelled), three General
// records and six SIP Busy slices, consecutive in time.
std::vector<prof_gcu_record> make_batch(size_t count, uint64_t &tick, uint64_t &correlation) {
  std::vector<prof_gcu_record> records(count);
  for (size_t i = 0; i < count; ++i) {
    prof_gcu_record &r = records[i];
    r.kind = PROF_GCU_RECORD_ACTIVITY;
    const size_t slot = i % 9;
    if (slot < 6) {
      r.group = 0;
      r.group_index = static_cast<uint16_t>(correlation % 4);
      r.engine = 0;
      r.engine_index = static_cast<uint16_t>(slot);
      r.item = 0;
    } else {
      r.group = -1;
      r.engine = 1;
      r.item = static_cast<uint32_t>(slot - 6);
      r.label = slot == 8 ? 1 + static_cast<uint32_t>(correlation % 2) : 0;
      r.stream = 1;
      if (slot == 8) ++correlation;
    }
    r.start = 1000000000000ull + tick;
    r.end = r.start + 2000 + (i % 13) * 100;
    r.correlation_id = correlation;
    tick += 700;
  }
  return records;
}

void BM_DeviceRecordsIntoReport(benchmark::State &state) {
  using namespace prof;
  core::PluginRegistry registry;
  registry.scan({e2e::kPluginDir});
  const core::PluginInfo *gcu = registry.find("gcu");
  if (gcu == nullptr) {
    state.SkipWithError("the gcu plugin is not built");
    return;
  }
  core::Catalog catalog;
  core::EventBus bus(core::EventBusConfig{64ull << 20, 48ull << 20, 4});
  core::Console console;
  core::CaptureContext context{catalog, bus, console,
                               prof_session_info{sizeof(prof_session_info), "bench", getpid(), "", ""}};
  core::SourceInstance source(*gcu, core::OptionValues(*gcu, {{"activities", "all"}}), context);
  const std::string path = "/tmp/bench-gcu-" + std::to_string(getpid()) + ".profrep";
  report::ReportWriter writer;
  report::Header header;
  header.session_name = "bench";
  writer.open(path, header, true);
  core::ReportSink sink(writer);
  core::EventPump pump(bus, catalog, {&sink});
  pump.start();
  if (!source.create() || !source.configure() || !source.start() || !g_capture.on_records) {
    state.SkipWithError(("gcu plugin: " + source.error()).c_str());
    return;
  }
  uint64_t tick = 0, correlation = 1;
  const std::vector<prof_gcu_record> batch = make_batch(4096, tick, correlation);
  // Each record is one slice; each Operator also ends a flow.
  const uint64_t events_per_batch =
      batch.size() + static_cast<uint64_t>(std::count_if(batch.begin(), batch.end(), [](const auto &r) {
        return r.engine == 1 && r.item == 2;
      }));
  const int batches = static_cast<int>(state.range(0));
  uint64_t target = pump.events();
  // Timed from the first delivery until the pump has handed the last event
  // to the report writer: the sustained rate, with nothing dropped.
  for (auto _ : state) {
    const uint64_t begin = now_ns();
    for (int b = 0; b < batches; ++b)
      g_capture.on_records(g_capture.user, batch.data(), batch.size());
    target += events_per_batch * static_cast<uint64_t>(batches);
    while (pump.events() < target && bus.dropped() == 0)
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    state.SetIterationTime(static_cast<double>(now_ns() - begin) * 1e-9);
  }
  source.stop();
  pump.stop();
  sink.finish(catalog, core::CaptureEnd{now_ns(), pump.events(), bus.dropped(), bus.drops(), 0, 0});
  const double records = static_cast<double>(state.iterations()) * batches * batch.size();
  state.SetItemsProcessed(static_cast<int64_t>(records));
  state.counters["dropped"] = static_cast<double>(bus.dropped());
  state.counters["report_bytes_per_record"] =
      static_cast<double>(std::filesystem::file_size(path)) / records;
  std::filesystem::remove(path);
}
// 64 batches of 4096 records (262144) fit the rings, so none is dropped.
BENCHMARK(BM_DeviceRecordsIntoReport)->Arg(64)->UseManualTime()->Unit(benchmark::kMillisecond);

} // namespace

// The gcu plugin finds its driver in the process through this symbol.
extern "C" __attribute__((visibility("default"))) const prof_gcu_driver *prof_gcu_driver_entry() {
  return &kDriver;
}

BENCHMARK_MAIN();
