// The cost of an NVTX push/pop pair through the nvtx plugin, against two bare
// timestamp reads (CLOCK_MONOTONIC, prof's session clock) in the same run,
// and two reads of the TSC stand-in for it that the plugin stamps with.
// The binary's NVTX calls reach the plugin's handlers through NVTX's static
// injection; its recorder stamps with prof::TscClock and emits into a real ring
// (prof's HostEmitters over an EventBus), strings and tracks from a fake host.
#include "nvtx_handlers.hpp"
#include <prof/annotations/annotation_recorder.hpp>

#include "core/events/event_bus.hpp"
#include "core/runtime/host_emitters.hpp"
#include "core/runtime/session_clock.hpp"

#include <prof/testing/fake_source_host.hpp>
#include <prof/tsc_clock.hpp>

#include <benchmark/benchmark.h>
#include <nvtx3/nvToolsExt.h>

using namespace prof::core;

namespace {

constexpr int64_t kPairs = 1'000'000;

EventBus &bus() {
  // One ring that holds a whole run: the emit never meets a full ring.
  static EventBus bus(EventBusConfig{128ull << 20, 127ull << 20, 2});
  return bus;
}

struct BenchRings {
  static void emit(void *, const prof_event &e) { bus().emit(e); }
  static void emit_group(void *, const prof_event *records, uint32_t count) {
    bus().emit_group(records, count);
  }
};
using Emitters = HostEmitters<BenchRings>;

/// The fake host's API with prof's clock and emit functions.
prof::Host bench_host() {
  static prof::testing::FakeSourceHost fake{0, prof::testing::HostAbi::current};
  static prof_host_api api = [] {
    prof_host_api a = *fake.api();
    a.now = [](void *) { return session_now_ns(); };
    a.emit_slice = &Emitters::emit_slice;
    a.emit_instant = &Emitters::emit_instant;
    a.emit_slice_args = &Emitters::emit_slice_args;
    a.emit_instant_args = &Emitters::emit_instant_args;
    return a;
  }();
  return prof::Host(&api, &fake);
}

void empty_ring() {
  bus().drain([](prof_event *, size_t) {}, true);
}

void BM_TwoTimestamps(benchmark::State &state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(session_now_ns());
    benchmark::DoNotOptimize(session_now_ns());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TwoTimestamps);

void BM_TwoTscClockStamps(benchmark::State &state) {
  state.counters["tsc"] = prof::TscClock::enable() ? 1 : 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(prof::TscClock::now_ns());
    benchmark::DoNotOptimize(prof::TscClock::now_ns());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TwoTscClockStamps);

void push_pop() {
  nvtxRangePushA("step");
  nvtxRangePop();
}

void BM_NvtxPushPop(benchmark::State &state) {
  // Recorders stay allocated, as in the plugin; one for the whole binary.
  // As the source's start does: the TSC where it stands in for the session clock.
  state.counters["tsc"] = prof::TscClock::enable() ? 1 : 0;
  static prof::annotations::AnnotationRecorder *recorder =
      prof::annotations::new_lasting_recorder(bench_host(), "nvtx");
  prof::nvtx::set_active_recorder(recorder);
  // Claims the ring and touches every page of it (the measured pairs go on
  // where these end, past a wrap), so no page fault is measured.
  for (int round = 0; round < 3; ++round) {
    for (int64_t i = 0; i < kPairs; ++i)
      push_pop();
    empty_ring();
  }
  for (auto _ : state)
    push_pop();
  state.SetItemsProcessed(state.iterations());
  state.counters["dropped"] = static_cast<double>(bus().dropped());
  empty_ring();
}
BENCHMARK(BM_NvtxPushPop)->Iterations(kPairs)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
