#include "stats_test_report.hpp"

#include "core/report/chunk.hpp"
#include "core/report/report_writer.hpp"

#include <prof/event.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <stdexcept>
#include <string_view>

namespace prof::stats::testing {

uint32_t TestReport::string(const std::string &text) {
  if (text.empty()) return 0;
  for (uint32_t id = 1; id < strings_.size(); ++id)
    if (strings_[id] == text) return id;
  strings_.push_back(text);
  return static_cast<uint32_t>(strings_.size() - 1);
}

uint32_t TestReport::track(prof_track_kind kind, uint32_t parent, const std::string &name,
                           int index, const std::string &unit) {
  report::TrackRecord t;
  t.id = static_cast<uint32_t>(tracks_.size() + 1);
  t.kind = kind;
  t.parent = parent;
  t.name = name;
  t.index = index;
  t.unit = unit;
  tracks_.push_back(t);
  return t.id;
}

uint32_t TestReport::process(const std::string &name, int pid) {
  const uint32_t id = track(PROF_TRACK_PROCESS, 0, name);
  tracks_.back().pid = pid;
  return id;
}

uint32_t TestReport::owned(prof_track_kind kind, uint32_t parent, const std::string &name, int pid,
                           int index) {
  const uint32_t id = track(kind, parent, name, index);
  tracks_.back().pid = pid;
  return id;
}

uint32_t TestReport::shared(prof_track_kind kind, uint32_t parent, const std::string &name,
                            int index) {
  const uint32_t id = track(kind, parent, name, index);
  tracks_.back().flags = PROF_TRACK_SHARED;
  return id;
}

uint32_t TestReport::thread(uint32_t process, const std::string &name, int tid) {
  const uint32_t id = track(PROF_TRACK_THREAD, process, name);
  tracks_.back().tid = tid;
  return id;
}

uint32_t TestReport::stack(const std::vector<std::string> &frames) {
  report::StackRecord s;
  s.id = static_cast<uint32_t>(stacks_.size() + 1);
  for (const auto &frame : frames)
    s.frames.push_back(string(frame));
  stacks_.push_back(s);
  return s.id;
}

void TestReport::slice(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
                       const std::string &category, prof_category kind) {
  prof_event e{};
  e.type = PROF_EVENT_SLICE;
  e.kind = static_cast<uint16_t>(kind);
  e.track = track;
  e.ts = ts;
  e.duration = duration;
  e.name = string(name);
  e.category = string(category);
  events_.push_back(e);
}

void TestReport::copy(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
                      const std::string &category, prof_category kind, uint64_t bytes) {
  slice(track, ts, duration, name, category, kind);
  report::ArgsRecord set{static_cast<uint32_t>(args_.size() + 1),
                         {prof::arg_uint(string("bytes"), bytes)}};
  args_.push_back(set);
  events_.back().args = set.id;
}

void TestReport::communication(uint32_t track, uint64_t ts, uint64_t duration,
                               const std::string &name, const std::string &communicator,
                               int64_t bytes, uint64_t sequence) {
  slice(track, ts, duration, name, "mpi", PROF_CATEGORY_COMMUNICATION);
  report::ArgsRecord set{static_cast<uint32_t>(args_.size() + 1),
                         {prof::arg_string(string("communicator"), string(communicator))}};
  if (bytes >= 0) set.args.push_back(prof::arg_int(string("bytes"), bytes));
  if (sequence != 0) set.args.push_back(prof::arg_uint(string("sequence"), sequence));
  args_.push_back(set);
  events_.back().args = set.id;
}

void TestReport::queued(uint64_t ns) {
  args_.back().args.push_back(prof::arg_uint(string(PROF_COMMUNICATION_ARG_QUEUED), ns));
}

void TestReport::flow(uint32_t track, uint64_t ts, uint64_t id, prof_flow_phase phase) {
  prof_event e{};
  e.type = PROF_EVENT_FLOW;
  e.flags = static_cast<uint8_t>(phase);
  e.track = track;
  e.ts = ts;
  e.id = id;
  events_.push_back(e);
}

void TestReport::annotation(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
                            const std::string &domain, const std::string &source) {
  slice(track, ts, duration, name, domain.empty() ? source : source + "/" + domain,
        PROF_CATEGORY_ANNOTATION);
  if (domain.empty()) return;
  report::ArgsRecord set{static_cast<uint32_t>(args_.size() + 1),
                         {prof::arg_string(string("domain"), string(domain))}};
  args_.push_back(set);
  events_.back().args = set.id;
}

void TestReport::op(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
                    const std::string &pass, int64_t self, const std::string &shapes,
                    std::optional<OpMemory> memory) {
  slice(track, ts, duration, name, "torch", PROF_CATEGORY_OPERATOR);
  report::ArgsRecord set{static_cast<uint32_t>(args_.size() + 1), {}};
  if (!pass.empty())
    set.args.push_back(prof::arg_string(string(PROF_OPERATOR_ARG_PASS), string(pass)));
  if (self >= 0)
    set.args.push_back(prof::arg_uint(string(PROF_OPERATOR_ARG_SELF), static_cast<uint64_t>(self)));
  if (!shapes.empty()) {
    set.args.push_back(prof::arg_string(string(PROF_OPERATOR_ARG_INPUT_SHAPES), string(shapes)));
    set.args.push_back(
        prof::arg_string(string(PROF_OPERATOR_ARG_INPUT_TYPES), string("[float, float]")));
  }
  if (memory) {
    set.args.push_back(prof::arg_int(string(PROF_OPERATOR_ARG_ALLOCATED), memory->allocated));
    set.args.push_back(
        prof::arg_int(string(PROF_OPERATOR_ARG_SELF_ALLOCATED), memory->self_allocated));
  }
  if (set.args.empty()) return;
  args_.push_back(set);
  events_.back().args = set.id;
}

void TestReport::step(uint32_t track, uint64_t ts, uint64_t duration, uint64_t number,
                      const std::string &name, bool as_int) {
  slice(track, ts, duration, name, "torch", PROF_CATEGORY_ANNOTATION);
  report::ArgsRecord set{static_cast<uint32_t>(args_.size() + 1),
                         {as_int
                              ? prof::arg_int(string(PROF_STEP_ARG), static_cast<int64_t>(number))
                              : prof::arg_uint(string(PROF_STEP_ARG), number)}};
  args_.push_back(set);
  events_.back().args = set.id;
}

void TestReport::call(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
                      uint64_t id, prof_category kind) {
  slice(track, ts, duration, name, "api", kind);
  events_.back().id = id;
}

void TestReport::work(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
                      prof_category kind, uint64_t id,
                      const std::vector<std::pair<std::string, std::string>> &args) {
  slice(track, ts, duration, name, "work", kind);
  events_.back().id = id;
  if (args.empty()) return;
  report::ArgsRecord set{static_cast<uint32_t>(args_.size() + 1), {}};
  for (const auto &[key, value] : args)
    set.args.push_back(prof::arg_string(string(key), string(value)));
  args_.push_back(set);
  events_.back().args = set.id;
}

void TestReport::dropped(prof_drop_cause cause, uint64_t count) {
  const uint32_t ring = report::cause_ring(cause);
  drops_.push_back({ring == 0 ? 1 : ring, 0, count});
}

void TestReport::memory(uint32_t track, uint64_t ts, const std::string &operation, uint64_t address,
                        uint64_t bytes, const std::string &memory, uint64_t correlation) {
  instant(track, ts, operation);
  prof_event &e = events_.back();
  e.kind = PROF_CATEGORY_MEMORY;
  e.category = string("Memory");
  report::ArgsRecord set{static_cast<uint32_t>(args_.size() + 1),
                         {prof::arg_string(string(PROF_MEMORY_ARG_OPERATION), string(operation)),
                          prof::arg_uint(string(PROF_MEMORY_ARG_ADDRESS), address),
                          prof::arg_uint(string(PROF_MEMORY_ARG_BYTES), bytes)}};
  if (!memory.empty())
    set.args.push_back(prof::arg_string(string(PROF_MEMORY_ARG_MEMORY), string(memory)));
  if (correlation != 0)
    set.args.push_back(prof::arg_uint(string(PROF_MEMORY_ARG_CORRELATION), correlation));
  args_.push_back(set);
  e.args = set.id;
}

void TestReport::counter(uint32_t track, uint64_t ts, double value) {
  prof_event e{};
  e.type = PROF_EVENT_COUNTER;
  e.track = track;
  e.ts = ts;
  e.value = value;
  events_.push_back(e);
}

void TestReport::sample(uint32_t track, uint64_t ts, uint32_t stack, const std::string &category) {
  prof_event e{};
  e.type = PROF_EVENT_SAMPLE;
  e.track = track;
  e.ts = ts;
  e.id = stack;
  e.category = string(category);
  events_.push_back(e);
}

void TestReport::instant(uint32_t track, uint64_t ts, const std::string &name) {
  prof_event e{};
  e.type = PROF_EVENT_INSTANT;
  e.track = track;
  e.ts = ts;
  e.name = string(name);
  events_.push_back(e);
}

void TestReport::heap(uint32_t track, uint64_t ts, const std::string &name,
                      const std::string &category,
                      const std::vector<std::pair<std::string, uint64_t>> &args, uint32_t stack) {
  instant(track, ts, name);
  events_.back().category = string(category);
  report::ArgsRecord set{static_cast<uint32_t>(args_.size() + 1), {}};
  for (const auto &[key, value] : args)
    set.args.push_back(prof::arg_uint(string(key), value));
  if (stack != 0) set.args.push_back(prof::arg_stack(string("stack"), stack));
  args_.push_back(set);
  events_.back().args = set.id;
}

void TestReport::write(const std::string &path, size_t events_per_chunk, bool finish) const {
  report::ReportWriter writer(report::WriterOptions{events_per_chunk});
  report::Header header;
  header.session_name = "stats-test";
  header.command_display = "app";
  header.pids = {100};
  header.host_name = "test";
  header.session_start_ns = kOrigin;
  writer.open(path, header, true);
  std::vector<std::string_view> texts(strings_.begin() + 1, strings_.end());
  writer.add_strings(1, texts);
  writer.add_tracks(tracks_);
  writer.add_stacks(stacks_);
  if (!args_.empty()) writer.add_args(args_);
  writer.add_events(events_.data(), events_.size());
  if (!drops_.empty()) writer.add_drops(drops_);
  for (const auto &payload : raw_)
    writer.add_raw_chunk(static_cast<uint16_t>(report::ChunkType::events), 0, payload);
  if (finish) writer.finish(report::Footer{});
}

TestReport known_report() {
  TestReport r;
  const auto us = [](uint64_t t) { return kOrigin + t * kUs; };
  const uint32_t process = r.track(PROF_TRACK_PROCESS, 0, "app");
  const uint32_t main = r.track(PROF_TRACK_THREAD, process, "main");
  const uint32_t gcu0 = r.track(PROF_TRACK_DEVICE, 0, "GCU 0", 0);
  const uint32_t sip0 =
      r.track(PROF_TRACK_ENGINE, r.track(PROF_TRACK_CLUSTER, gcu0, "Cluster 0", 0), "SIP 0", 0);
  const uint32_t cdma0 = r.track(PROF_TRACK_ENGINE, gcu0, "CDMA 0", 0);
  const uint32_t gcu1 = r.track(PROF_TRACK_DEVICE, 0, "GCU 1", 1);
  const uint32_t sip1 = r.track(PROF_TRACK_ENGINE, gcu1, "SIP 0", 0);
  const uint32_t cpu2 = r.track(PROF_TRACK_COUNTER, 0, "cpu2 utilization", 2, "%");
  const uint32_t rss = r.track(PROF_TRACK_COUNTER, process, "RSS", -1, "bytes");
  const uint32_t leaf = r.stack({"compute", "main"});
  const uint32_t deep = r.stack({"helper", "compute", "main"});

  r.slice(main, us(0), 10000 * kUs, "step", "nvtx");
  r.slice(sip0, us(0), 2000 * kUs, "conv", "Operator", PROF_CATEGORY_KERNEL);
  r.slice(main, us(0), 5 * kUs, "gcuLaunchKernel", "api");
  r.slice(sip1, us(1000), 3000 * kUs, "conv", "Operator", PROF_CATEGORY_KERNEL);
  r.slice(main, us(10), 7 * kUs, "gcuLaunchKernel", "api");
  r.counter(cpu2, us(10), 10);
  r.slice(main, us(20), 10 * kUs, "read", "osrt");
  r.sample(main, us(100), leaf);
  r.slice(sip0, us(2500), 1000 * kUs, "conv", "Operator", PROF_CATEGORY_KERNEL);
  r.slice(sip0, us(3400), 200 * kUs, "relu", "Operator", PROF_CATEGORY_KERNEL);
  r.counter(cpu2, us(2000), 20);
  r.sample(main, us(200), leaf);
  r.copy(sip1, us(4000), 500 * kUs, "Memcpy DtoH", "Operator", PROF_CATEGORY_MEMCPY_DTOH, 4096);
  r.counter(rss, us(3000), 1048576);
  r.copy(cdma0, us(5000), 100 * kUs, "Memcpy HtoD", "DMA VC Execution", PROF_CATEGORY_MEMCPY_HTOD,
         1048576);
  r.slice(main, us(5000), 300 * kUs, "Running", "thread-state");
  r.instant(main, us(6000), "mark");
  r.sample(main, us(300), deep);
  r.sample(main, us(400), leaf);
  r.sample(main, us(500), deep, "osrt"); // a blocking call's stack, not a CPU sample
  r.counter(cpu2, us(8000), 60);
  r.counter(rss, us(8000), 3.0 * 1048576);
  r.copy(cdma0, us(9000), 50 * kUs, "Memset", "DMA VC Execution", PROF_CATEGORY_MEMSET, 256);
  return r;
}

TestReport random_report(uint64_t events, uint32_t seed, int devices) {
  TestReport r;
  std::mt19937 random(seed);
  const uint32_t process = r.track(PROF_TRACK_PROCESS, 0, "app");
  const uint32_t main = r.track(PROF_TRACK_THREAD, process, "main");
  std::vector<uint32_t> engines;
  for (int d = 0; d < devices; ++d) {
    const uint32_t device = r.track(PROF_TRACK_DEVICE, 0, "GCU " + std::to_string(d), d);
    for (int e = 0; e < 3; ++e)
      engines.push_back(r.track(PROF_TRACK_ENGINE, device, "SIP " + std::to_string(e), e));
  }
  const uint32_t counter = r.track(PROF_TRACK_COUNTER, 0, "load", -1, "%");
  std::vector<uint32_t> stacks;
  for (int s = 0; s < 5; ++s)
    stacks.push_back(r.stack({"f" + std::to_string(s), "main"}));
  const char *const names[] = {"conv", "matmul", "Memcpy HtoD", "Memset", "relu", "softmax"};
  const char *const host_categories[] = {"api", "osrt", "nvtx"};
  for (uint64_t i = 0; i < events; ++i) {
    const uint64_t ts = kOrigin + random() % 1'000'000'000; // out of order, within 1 s
    switch (random() % 6) {
    case 0: {
      const uint64_t duration = random() % 100000;
      const std::string name = names[random() % 6];
      const std::string category = host_categories[random() % 3];
      if (category == "nvtx")
        r.annotation(main, ts, duration, name, random() % 2 == 0 ? "train" : "");
      else
        r.slice(main, ts, duration, name, category);
      break;
    }
    case 1:
      r.counter(counter, ts, (random() % 10000) / 7.0);
      break;
    case 2:
      r.sample(main, ts, stacks[random() % stacks.size()]);
      break;
    default: {
      // Copies and sets as sources tag them; everything else a kernel.
      const std::string_view name = names[random() % 6];
      const prof_category kind = name == "Memset"             ? PROF_CATEGORY_MEMSET
                                 : name.starts_with("Memcpy") ? PROF_CATEGORY_MEMCPY_HTOD
                                                              : PROF_CATEGORY_KERNEL;
      r.slice(engines[random() % engines.size()], ts, random() % 2'000'000, std::string(name),
              random() % 4 == 0 ? "DMA VC Execution" : "Operator", kind);
    }
    }
  }
  return r;
}

} // namespace prof::stats::testing
