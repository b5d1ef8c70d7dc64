#include "tools/prof-plugin-check/generated_capture.hpp"

#include <prof/event.hpp>
#include <prof/testing/test_events.hpp>

#include <string>

namespace prof::plugin_check {
namespace {

prof_track_id track(core::Catalog &catalog, prof_track_kind kind, const std::string &name,
                    prof_track_id parent, int pid, int tid, int index, const char *unit = nullptr) {
  const prof_track_desc desc{
      sizeof(prof_track_desc), kind, parent, name.c_str(), pid, tid, index, unit,
      PROF_CLOCK_SESSION};
  return catalog.tracks.declare(&desc);
}

/// The tracks a small capture has: a process with threads, a device with
/// an engine and its memory counter, a CPU.
struct Tracks {
  prof_track_id process, device, engine, memory, cpu, load;
  std::vector<prof_track_id> threads;
};

Tracks declare_tracks(core::Catalog &catalog, int threads) {
  constexpr int pid = 4242;
  Tracks t;
  t.process = track(catalog, PROF_TRACK_PROCESS, "app", 0, pid, 0, -1);
  for (int i = 0; i < threads; ++i)
    t.threads.push_back(track(catalog, PROF_TRACK_THREAD, "worker " + std::to_string(i), t.process,
                              pid, pid + i, -1));
  t.device = track(catalog, PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
  t.engine = track(catalog, PROF_TRACK_ENGINE, "SIP", t.device, 0, 0, 0);
  t.memory =
      track(catalog, PROF_TRACK_COUNTER, PROF_MEMORY_USED_TRACK, t.device, 0, 0, -1, "bytes");
  t.cpu = track(catalog, PROF_TRACK_CPU, "CPU 0", 0, 0, 0, 0);
  t.load = track(catalog, PROF_TRACK_COUNTER, "CPU utilization", t.cpu, 0, 0, -1, "%");
  return t;
}

prof_event with_args(prof_event e, prof_args_id args, prof_category kind) {
  e.args = args;
  e.kind = static_cast<uint16_t>(kind);
  return e;
}

} // namespace

void make_empty_capture(GeneratedCapture &capture) { capture.events.clear(); }

void make_one_of_each_capture(GeneratedCapture &capture) {
  core::Catalog &c = capture.catalog;
  const Tracks t = declare_tracks(c, 1);
  const prof_string_id kernel = c.strings.intern("matmul"), api = c.strings.intern("launch"),
                       mark = c.strings.intern("step"), runtime = c.strings.intern("api"),
                       alloc = c.strings.intern("alloc");
  const prof_string_id frames[] = {c.strings.intern("leaf"), c.strings.intern("main")};
  const prof_stack_id stack = c.stacks.intern(frames);
  const prof_arg kernel_args[] = {arg_uint(c.strings.intern("bytes"), 4096),
                                  arg_string(c.strings.intern("stream"), c.strings.intern("s0"))};
  const prof_arg memory_args[] = {
      arg_string(c.strings.intern(PROF_MEMORY_ARG_OPERATION), c.strings.intern("alloc")),
      arg_uint(c.strings.intern(PROF_MEMORY_ARG_ADDRESS), 0x1000),
      arg_uint(c.strings.intern(PROF_MEMORY_ARG_BYTES), 4096)};
  const prof_args_id kernel_set = c.args.intern(kernel_args);
  const prof_args_id memory_set = c.args.intern(memory_args);
  using namespace testing;
  prof_event stack_event = sample(t.threads[0], 1'400, stack);
  stack_event.category = c.strings.intern("osrt");
  capture.events = {
      with_args(slice(t.threads[0], 1'000, 200, api, runtime, 7), 0, PROF_CATEGORY_RUNTIME_API),
      flow(t.threads[0], 1'050, 7, PROF_FLOW_BEGIN),
      instant(t.threads[0], 1'100, mark),
      with_args(instant(t.device, 1'150, alloc), memory_set, PROF_CATEGORY_MEMORY),
      counter(t.memory, 1'150, 4096),
      sample(t.threads[0], 1'300, stack),
      stack_event,
      with_args(slice(t.engine, 2'000, 500, kernel, 0, 7), kernel_set, PROF_CATEGORY_KERNEL),
      flow(t.engine, 2'000, 7, PROF_FLOW_END),
      counter(t.load, 2'500, 42.5),
  };
}

void make_large_capture(GeneratedCapture &capture, size_t count) {
  core::Catalog &c = capture.catalog;
  const Tracks t = declare_tracks(c, 8);
  std::vector<prof_string_id> names;
  for (int i = 0; i < 64; ++i)
    names.push_back(c.strings.intern("kernel_" + std::to_string(i)));
  const prof_string_id runtime = c.strings.intern("api");
  std::vector<prof_stack_id> stacks;
  for (int i = 0; i < 32; ++i) {
    const prof_string_id frames[] = {names[i], names[(i + 1) % 64], c.strings.intern("main")};
    stacks.push_back(c.stacks.intern(frames));
  }
  const prof_arg bytes[] = {arg_uint(c.strings.intern("bytes"), 1 << 20)};
  const prof_args_id set = c.args.intern(bytes);
  using namespace testing;
  capture.events.clear();
  capture.events.reserve(count + 8);
  uint64_t ts = 1'000'000;
  for (uint64_t i = 0; capture.events.size() < count; ++i, ts += 1'000) {
    const prof_track_id thread = t.threads[i % t.threads.size()];
    const prof_string_id name = names[i % names.size()];
    capture.events.push_back(
        with_args(slice(thread, ts, 800, name, runtime, i + 1), 0, PROF_CATEGORY_RUNTIME_API));
    capture.events.push_back(flow(thread, ts + 10, i + 1, PROF_FLOW_BEGIN));
    capture.events.push_back(
        with_args(slice(t.engine, ts + 500, 400, name, 0, i + 1), set, PROF_CATEGORY_KERNEL));
    capture.events.push_back(flow(t.engine, ts + 500, i + 1, PROF_FLOW_END));
    capture.events.push_back(counter(t.load, ts, static_cast<double>(i % 100)));
    capture.events.push_back(sample(thread, ts + 200, stacks[i % stacks.size()]));
    if (i % 16 == 0) capture.events.push_back(instant(thread, ts + 300, names[0]));
  }
}

} // namespace prof::plugin_check
