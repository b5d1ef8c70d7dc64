// The event path's costs, measured side by side in one binary:
//  - one bare timestamp read (TSC, and CLOCK_MONOTONIC for reference);
//  - one emit into the calling thread's ring, timestamp read included,
//    from one thread and from two at once;
//  - a slice through the host API's emit functions, bare and with three
//    typed arguments (plugin ABI 1.5);
//  - the drain: rings emptied into the report writer (events/s, bytes/event).
// Emit runs use rings big enough for the whole run, touched beforehand, so
// they measure the emit itself, never a full ring or a page fault.
#include "core/capture/capture_windows.hpp"
#include "core/events/event_bus.hpp"
#include "core/report/report_writer.hpp"
#include "core/runtime/host_emitters.hpp"
#include "core/runtime/session_clock.hpp"

#include <prof/event.hpp>

#include <benchmark/benchmark.h>

#include <barrier>
#include <filesystem>
#include <memory>
#include <thread>
#include <unistd.h>

using namespace prof::core;

namespace {

constexpr int64_t kEmitsPerThread = 2'000'000;

EventBus &emit_bus() {
  // One 128 MiB ring per thread: holds a whole run of kEmitsPerThread.
  static EventBus bus(EventBusConfig{128ull << 20, 127ull << 20, 4});
  return bus;
}

void empty_rings(EventBus &bus) {
  bus.drain([](prof_event *, size_t) {}, true);
}

prof_event slice_now(uint32_t track) {
  prof_event e;
  e.type = PROF_EVENT_SLICE;
  e.flags = 0;
  e.kind = 0;
  e.track = track;
  e.name = 7;
  e.category = 1;
  e.ts = tsc_now();
  e.duration = 100;
  e.id = 0;
  e.value = 0;
  return e;
}

void BM_TimestampTsc(benchmark::State &state) {
  for (auto _ : state) benchmark::DoNotOptimize(tsc_now());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TimestampTsc);

void BM_TimestampClockMonotonic(benchmark::State &state) {
  for (auto _ : state) benchmark::DoNotOptimize(session_now_ns());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TimestampClockMonotonic);


void BM_Emit(benchmark::State &state) {
  EventBus &bus = emit_bus();
  static std::unique_ptr<std::barrier<>> barrier;
  if (state.thread_index() == 0) barrier = std::make_unique<std::barrier<>>(state.threads());
  // Every thread fills its ring once (claiming it and touching its pages), then
  // thread 0 empties them all while the others wait.
  while (!barrier) std::this_thread::yield();
  for (int64_t i = 0; i < kEmitsPerThread; ++i) bus.emit(slice_now(state.thread_index() + 1));
  barrier->arrive_and_wait();
  if (state.thread_index() == 0) empty_rings(bus);
  barrier->arrive_and_wait();
  const uint32_t track = static_cast<uint32_t>(state.thread_index() + 1);
  for (auto _ : state) bus.emit(slice_now(track));
  state.SetItemsProcessed(state.iterations());
  barrier->arrive_and_wait();
  if (state.thread_index() == 0) {
    state.counters["dropped"] = static_cast<double>(bus.dropped());
    empty_rings(bus);
  }
  barrier->arrive_and_wait();
  if (state.thread_index() == 0) barrier.reset();
}
BENCHMARK(BM_Emit)->Iterations(kEmitsPerThread)->Threads(1)->Threads(2)->UseRealTime();

// The host API's emit functions (what plugins call) over the bench's rings.
struct BenchRings {
  static void emit(void *, const prof_event &e) { emit_bus().emit(e); }
  static void emit_group(void *, const prof_event *records, uint32_t count) {
    emit_bus().emit_group(records, count);
  }
};
using BenchEmitters = HostEmitters<BenchRings>;
constexpr int64_t kApiEmits = 1'000'000; // with arguments, two records each

/// Runs `emit_one` kApiEmits times on one thread, after a first run that
/// claims the ring and touches its pages.
template <class EmitOne> void run_api_emits(benchmark::State &state, EmitOne emit_one) {
  EventBus &bus = emit_bus();
  for (int64_t i = 0; i < kApiEmits; ++i)
    emit_one();
  empty_rings(bus);
  for (auto _ : state)
    emit_one();
  state.SetItemsProcessed(state.iterations());
  state.counters["dropped"] = static_cast<double>(bus.dropped());
  empty_rings(bus);
}

void BM_EmitSliceHostApi(benchmark::State &state) {
  run_api_emits(state, [] { BenchEmitters::emit_slice(nullptr, 1, tsc_now(), 100, 7, 1, 0); });
}
BENCHMARK(BM_EmitSliceHostApi)->Iterations(kApiEmits)->UseRealTime();

void BM_EmitSliceHostApiThreeArgs(benchmark::State &state) {
  const prof_arg args[3] = {prof::arg_uint(8, 4096), prof::arg_uint(9, 3), prof::arg_int(10, -1)};
  run_api_emits(state, [&args] {
    BenchEmitters::emit_slice_args(nullptr, 1, tsc_now(), 100, 7, 1, 0, PROF_CATEGORY_MEMCPY_HTOD,
                                   args, 3);
  });
}
BENCHMARK(BM_EmitSliceHostApiThreeArgs)->Iterations(kApiEmits)->UseRealTime();

// Drain: 1M events waiting in two rings (slices, counters and instants as a
// capture mixes them) are emptied into the report writer.
void BM_DrainIntoReportWriter(benchmark::State &state) {
  constexpr int kEvents = 1'000'000;
  EventBus bus(EventBusConfig{64ull << 20, 63ull << 20, 4});
  const std::string path =
      (std::filesystem::temp_directory_path() / ("prof-bench-" + std::to_string(getpid()) + ".profrep"))
          .string();
  uint64_t events = 0, bytes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    uint64_t ts = session_now_ns();
    for (int i = 0; i < kEvents; ++i) {
      ts += 500 + (i % 7) * 13;
      prof_event e{};
      e.track = 1 + i % 16;
      e.ts = ts;
      switch (i % 4) {
      case 0: e.type = PROF_EVENT_COUNTER; e.value = (i % 100) * 0.5; break;
      case 1: e.type = PROF_EVENT_INSTANT; e.name = 3 + i % 20; break;
      default: e.type = PROF_EVENT_SLICE; e.name = 3 + i % 50; e.duration = 200 + i % 1000; e.id = i; break;
      }
      bus.emit(e);
    }
    prof::report::ReportWriter writer;
    writer.open(path, prof::report::Header{}, true);
    const uint64_t before = writer.bytes_written();
    state.ResumeTiming();
    events += bus.drain([&](prof_event *batch, size_t n) { writer.add_events(batch, n); }, true);
    writer.flush();
    state.PauseTiming();
    bytes += writer.bytes_written() - before;
    writer.finish({});
    state.ResumeTiming();
  }
  std::filesystem::remove(path);
  state.SetItemsProcessed(static_cast<int64_t>(events));
  state.counters["bytes_per_event"] = events ? static_cast<double>(bytes) / events : 0;
  state.counters["dropped"] = static_cast<double>(bus.dropped());
}
BENCHMARK(BM_DrainIntoReportWriter)->Unit(benchmark::kMillisecond)->UseRealTime();

// Events through the collection windows to a sink that keeps nothing:
// 0 = straight to the sink (the baseline), 1 = one open window (every
// capture), 2 = a window with 8 suspended intervals while two stopped ones
// wait for late events.
void BM_CaptureWindowsRouting(benchmark::State &state) {
  constexpr size_t kEvents = 1'000'000;
  struct Nothing final : prof::core::EventSink {
    void consume(const prof_event *events, size_t count) override {
      benchmark::DoNotOptimize(events);
      kept += count;
    }
    uint64_t kept = 0;
  };
  struct NothingOutput final : prof::core::WindowOutput {
    explicit NothingOutput(Nothing &sink) : sink_(sink) {}
    prof::core::EventSink &sink() override { return sink_; }
    std::string finish(const prof::core::Catalog &, const prof::core::CaptureEnd &) override {
      return "";
    }
    void discard() override {}
    std::string description() const override { return ""; }
    Nothing &sink_;
  };
  std::vector<prof_event> events(kEvents);
  for (size_t i = 0; i < kEvents; ++i) {
    events[i].type = PROF_EVENT_SLICE;
    events[i].ts = 1'000'000 + i * 100 + (i % 13) * 7;
  }
  prof::core::Catalog catalog;
  Nothing sink;
  prof::core::CaptureWindows windows(
      catalog, {},
      [&](const prof::core::WindowFacts &, std::string *) {
        return std::make_unique<NothingOutput>(sink);
      },
      nullptr, std::chrono::hours(1));
  if (state.range(0) == 1) windows.start(0);
  if (state.range(0) == 2) {
    windows.start(0);
    windows.stop(100);
    windows.start(200);
    windows.stop(300);
    windows.start(400);
    for (uint64_t cut = 0; cut < 8; ++cut) {
      windows.suspend(2'000'000 + cut * 10'000'000);
      windows.resume(2'500'000 + cut * 10'000'000);
    }
  }
  prof::core::EventSink &into = state.range(0) == 0 ? static_cast<prof::core::EventSink &>(sink)
                                                    : windows;
  for (auto _ : state)
    for (size_t at = 0; at < kEvents; at += 4096)
      into.consume(events.data() + at, std::min<size_t>(4096, kEvents - at));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kEvents));
  state.counters["kept_per_event"] =
      static_cast<double>(sink.kept) / static_cast<double>(state.iterations() * kEvents);
}
BENCHMARK(BM_CaptureWindowsRouting)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
