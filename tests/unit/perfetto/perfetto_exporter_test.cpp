// The perfetto exporter driven through a fake export host; its output is
// decoded with protoc against minimal_trace.proto and checked field by field.
#include "perfetto_exporter.hpp"

#include "tests/support/decoded_trace.hpp"
#include "tests/support/exporter_test.hpp"
#include "tests/support/trace_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

namespace prof::perfetto {
namespace {

namespace fs = std::filesystem;
using testing::FakeExportHost;
using testing::ModelSlice;
using testing::TextNode;
using testing::TraceModel;

class PerfettoExporterTest : public testing::ExporterTest<PerfettoExporter> {
protected:
  PerfettoExporterTest() : ExporterTest("out.perfetto-trace") {}
};

/// The capture the tests share: a process and thread on the host, a device
/// with cluster > engine > index, two counters, slices joined by a
/// correlation id, flows, an instant and a CPU sample.
struct Capture {
  FakeExportHost host;
  prof_track_id process, thread, device, cluster, engine, index, memory, utilization;
  prof_stack_id stack;
  std::vector<std::vector<prof_event>> batches;

  Capture() {
    host.set_target(4242, "python train.py --epochs 1");
    process = host.add_track(PROF_TRACK_PROCESS, "python", 0, 4242);
    thread = host.add_track(PROF_TRACK_THREAD, "main", process, 4242, 4243);
    device = host.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
    cluster = host.add_track(PROF_TRACK_CLUSTER, "Cluster 0", device, 0, 0, 0);
    engine = host.add_track(PROF_TRACK_ENGINE, "SIP", cluster, 0, 0, 0);
    index = host.add_track(PROF_TRACK_ENGINE, "SIP 1", engine, 0, 0, 1);
    memory = host.add_track(PROF_TRACK_COUNTER, "GCU memory", device, 0, 0, -1, "bytes");
    utilization = host.add_track(PROF_TRACK_COUNTER, "CPU utilization", 0, 0, 0, -1, "%");
    stack = host.add_stack({"matmul_impl", "run", "main"});
    // Device work first: batches are not ordered across producers.
    batches.push_back({host.slice(index, "matmul", 2000, 500, "kernel", 7),
                       host.counter(memory, 2000, 8192), host.flow(index, 2000, 9, PROF_FLOW_END)});
    batches.push_back({host.slice(thread, "inner", 1000, 100, "api"),
                       host.slice(thread, "topsLaunchKernel", 1000, 300, "api", 7),
                       host.flow(thread, 1100, 9, PROF_FLOW_BEGIN),
                       host.sample(thread, 1200, stack), host.instant(thread, "marker", 1500),
                       host.counter(memory, 1000, 4096), host.counter(utilization, 1000, 12.5)});
  }
};

const TextNode *track_event_named(const TraceModel &model, const TextNode &trace,
                                  const std::string &name, const std::string &type) {
  for (const TextNode *p : trace.all("packet")) {
    const TextNode *e = p->first("track_event");
    if (e != nullptr && e->get("type") == type && model.event_names.count(e->get("name_iid")) &&
        model.event_names.at(e->get("name_iid")) == name)
      return p;
  }
  return nullptr;
}

// Flow ids that take 8 varint bytes or more (2^49 and up: a merged report's
// inputs from the second on carry their index in bits 48..63) are no
// longer as fixed64: written as flow_ids and terminating_flow_ids; shorter
// ones as their varint twins.
TEST_F(PerfettoExporterTest, LongFlowIdsAreFixed64AndShortOnesVarints) {
  FakeExportHost host;
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "main", 0, 1, 1);
  const uint64_t second_input = (uint64_t{1} << 48) + 5, longer_id = uint64_t{1} << 49;
  const uint64_t short_id = (uint64_t{1} << 49) - 1;
  ASSERT_TRUE(run(host, {{host.slice(thread, "a", 1000, 10, "api", second_input),
                          host.slice(thread, "b", 2000, 10, "api", longer_id),
                          host.slice(thread, "c", 3000, 10, "api", short_id),
                          host.flow(thread, 4000, longer_id, PROF_FLOW_END)}}));
  const TextNode trace = testing::decode_trace(path_);
  const TraceModel model(trace);
  std::map<std::string, std::pair<std::string, std::string>> flows; // name: field, id
  for (const TextNode *p : trace.all("packet"))
    if (const TextNode *e = p->first("track_event"); e && e->get("type") != "TYPE_SLICE_END")
      for (const char *field :
           {"flow_ids_old", "flow_ids", "terminating_flow_ids_old", "terminating_flow_ids"})
        if (e->has(field)) flows[model.event_names.at(e->get("name_iid"))] = {field, e->get(field)};
  EXPECT_EQ(flows["a"], std::make_pair(std::string("flow_ids_old"), std::to_string(second_input)));
  EXPECT_EQ(flows["b"], std::make_pair(std::string("flow_ids"), std::to_string(longer_id)));
  EXPECT_EQ(flows["c"], std::make_pair(std::string("flow_ids_old"), std::to_string(short_id)));
  EXPECT_EQ(flows["flow"],
            std::make_pair(std::string("terminating_flow_ids"), std::to_string(longer_id)));
}

TEST_F(PerfettoExporterTest, WritesTracksWithNestingAndDescriptors) {
  Capture c;
  ASSERT_TRUE(run(c.host, c.batches)) << ::testing::PrintToString(c.host.errors());
  const TextNode trace = testing::decode_trace(path_);
  const TraceModel model(trace);
  const auto packets = trace.all("packet");
  ASSERT_FALSE(packets.empty());

  // Each sequence starts by clearing its state (SEQ_INCREMENTAL_STATE_CLEARED);
  // descriptors are on the main sequence (1), and each track's events on a
  // sequence of their own that names the track once, in its defaults.
  std::map<std::string, std::string> first_flags, sequence_track;
  for (const TextNode *p : packets) {
    const std::string sequence = p->get("trusted_packet_sequence_id");
    EXPECT_FALSE(sequence.empty());
    first_flags.emplace(sequence, p->get("sequence_flags"));
    if (p->has("track_descriptor")) {
      EXPECT_EQ(sequence, "1");
    }
    if (const TextNode *e = p->first("track_event")) {
      EXPECT_FALSE(e->has("track_uuid"));
      const auto known = sequence_track.emplace(sequence, model.track_uuid(p)).first;
      EXPECT_EQ(known->second, model.track_uuid(p)) << "one track per sequence";
    }
  }
  EXPECT_EQ(first_flags.begin()->first, "1");
  for (const auto &[sequence, flags] : first_flags)
    EXPECT_EQ(flags, "1") << "sequence " << sequence;
  EXPECT_EQ(sequence_track.size(), 4u); // SIP 1, main, and the two counters
  EXPECT_EQ(model.duplicate_descriptors, 0);
  EXPECT_EQ(model.descriptor_packet.size(), 8u);

  // device > cluster > engine > index, each parent described before its child.
  const std::string device = model.uuid_of("GCU 0"), cluster = model.uuid_of("Cluster 0"),
                    engine = model.uuid_of("SIP"), index = model.uuid_of("SIP 1");
  ASSERT_FALSE(device.empty());
  EXPECT_FALSE(model.descriptor("GCU 0")->has("parent_uuid"));
  EXPECT_EQ(model.descriptor("Cluster 0")->get("parent_uuid"), device);
  EXPECT_EQ(model.descriptor("SIP")->get("parent_uuid"), cluster);
  EXPECT_EQ(model.descriptor("SIP 1")->get("parent_uuid"), engine);
  EXPECT_LT(model.descriptor_packet.at(device), model.descriptor_packet.at(cluster));
  EXPECT_LT(model.descriptor_packet.at(cluster), model.descriptor_packet.at(engine));
  EXPECT_LT(model.descriptor_packet.at(engine), model.descriptor_packet.at(index));
  std::set<std::string> uuids{device, cluster, engine, index};
  EXPECT_EQ(uuids.size(), 4u);
  EXPECT_EQ(uuids.count("0"), 0u);

  // Process and thread descriptors.
  const TextNode *process = model.descriptor("python")->first("process");
  ASSERT_NE(process, nullptr);
  EXPECT_EQ(process->get("pid"), "4242");
  EXPECT_EQ(process->get("process_name"), "python");
  std::vector<std::string> cmdline;
  for (const TextNode *arg : process->all("cmdline"))
    cmdline.push_back(arg->value);
  EXPECT_EQ(cmdline, (std::vector<std::string>{"python", "train.py", "--epochs", "1"}));
  const TextNode *thread = model.descriptor("main")->first("thread");
  ASSERT_NE(thread, nullptr);
  EXPECT_EQ(thread->get("pid"), "4242");
  EXPECT_EQ(thread->get("tid"), "4243");
  EXPECT_EQ(thread->get("thread_name"), "main");
  EXPECT_LT(model.descriptor_packet.at(model.uuid_of("python")),
            model.descriptor_packet.at(model.uuid_of("main")));

  // Counter tracks: a known unit and a free-text one.
  EXPECT_EQ(model.descriptor("GCU memory")->first("counter")->get("unit"), "UNIT_SIZE_BYTES");
  EXPECT_EQ(model.descriptor("GCU memory")->get("parent_uuid"), device);
  EXPECT_EQ(model.descriptor("CPU utilization")->first("counter")->get("unit_name"), "%");
}

TEST_F(PerfettoExporterTest, ArgumentsAreDebugAnnotationsAndKindsASecondCategory) {
  FakeExportHost host;
  const prof_track_id engine = host.add_track(PROF_TRACK_ENGINE, "CDMA 0");
  const uint64_t args =
      host.add_args({host.uint_arg("bytes", 4096), host.int_arg("delta", -3),
                     host.double_arg("ratio", 0.5), host.string_arg("direction", "in")});
  const std::vector<std::vector<prof_event>> batches{
      {FakeExportHost::with_args(host.slice(engine, "Memcpy HtoD", 100, 50, "DMA", 1), args,
                                 PROF_CATEGORY_MEMCPY_HTOD),
       host.slice(engine, "plain", 200, 10, "DMA")}};
  ASSERT_TRUE(run(host, batches)) << ::testing::PrintToString(host.errors());
  const TextNode trace = testing::decode_trace(path_);
  const TraceModel model(trace);
  const TextNode *copy = track_event_named(model, trace, "Memcpy HtoD", "TYPE_SLICE_BEGIN");
  ASSERT_NE(copy, nullptr);
  const TextNode &event = *copy->first("track_event");
  std::vector<std::string> categories;
  for (const TextNode *iid : event.all("category_iids"))
    categories.push_back(model.categories.at(iid->value));
  EXPECT_EQ(categories, (std::vector<std::string>{"DMA", "memcpy.htod"}));
  std::map<std::string, std::string> annotations;
  for (const TextNode *a : event.all("debug_annotations")) {
    for (const char *field : {"uint_value", "int_value", "double_value", "string_value"})
      if (a->has(field)) annotations[a->get("name")] = a->get(field);
  }
  EXPECT_EQ(annotations,
            (std::map<std::string, std::string>{
                {"bytes", "4096"}, {"delta", "-3"}, {"ratio", "0.5"}, {"direction", "in"}}));
  const TextNode *plain = track_event_named(model, trace, "plain", "TYPE_SLICE_BEGIN");
  ASSERT_NE(plain, nullptr);
  EXPECT_FALSE(plain->first("track_event")->has("debug_annotations"));
  EXPECT_EQ(plain->first("track_event")->all("category_iids").size(), 1u);
  // The slice with arguments still ends where it should.
  EXPECT_EQ(model.unmatched_ends, 0);
  const auto slices = model.sorted_slices();
  EXPECT_NE(
      std::find(slices.begin(), slices.end(), ModelSlice{"CDMA 0", "Memcpy HtoD", 100, 50, 0}),
      slices.end());
}

TEST_F(PerfettoExporterTest, WritesSlicesInstantsCountersFlowsAndSamples) {
  Capture c;
  ASSERT_TRUE(run(c.host, c.batches)) << ::testing::PrintToString(c.host.errors());
  const TextNode trace = testing::decode_trace(path_);
  const TraceModel model(trace);
  EXPECT_EQ(model.unmatched_ends, 0);
  EXPECT_EQ(model.duplicate_iids, 0);

  // What trace_processor rebuilds: names, timestamps, durations and nesting.
  const std::vector<ModelSlice> expected{
      {"SIP 1", "matmul", 2000, 500, 0},
      {"SIP 1", "flow", 2000, 0, 1},   // flow 9's end
      {"SIP 1", "matmul", 2000, 0, 1}, // flow 7's: the kernel came before its call
      {"main", "topsLaunchKernel", 1000, 300, 0},
      {"main", "inner", 1000, 100, 1},
      {"main", "flow", 1100, 0, 1},
      {"main", "marker", 1500, 0, 0},
  };
  const auto by_order = [](std::vector<ModelSlice> v) {
    std::sort(v.begin(), v.end(), [](const ModelSlice &a, const ModelSlice &b) {
      return std::tie(a.track, a.ts, a.depth, a.name) < std::tie(b.track, b.ts, b.depth, b.name);
    });
    return v;
  };
  EXPECT_EQ(model.sorted_slices(), by_order(expected));

  // The API call and the kernel it launched share flow id 7. The kernel's
  // batch came first, when no call had id 7: an instant of its name at its
  // start on its track carries the flow, written when the call came.
  const TextNode *api = track_event_named(model, trace, "topsLaunchKernel", "TYPE_SLICE_BEGIN");
  const TextNode *kernel = track_event_named(model, trace, "matmul", "TYPE_SLICE_BEGIN");
  ASSERT_NE(api, nullptr);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(model.time(api), 1000u);
  EXPECT_FALSE(api->has("sequence_flags")); // only the sequence's first packet clears
  EXPECT_EQ(model.track_uuid(api), model.uuid_of("main"));
  // Short ids as varints (3 bytes here, not 9); trace_processor reads both.
  EXPECT_EQ(api->first("track_event")->get("flow_ids_old"), "7");
  EXPECT_FALSE(kernel->first("track_event")->has("flow_ids_old"));
  EXPECT_FALSE(kernel->first("track_event")->has("flow_ids"));
  int kernel_flow_instants = 0;
  for (const TextNode *p : trace.all("packet"))
    if (const TextNode *e = p->first("track_event");
        e != nullptr && e->get("flow_ids_old") == "7" && e->get("type") == "TYPE_INSTANT") {
      ++kernel_flow_instants;
      EXPECT_EQ(model.time(p), 2000u);
      EXPECT_EQ(model.track_uuid(p), model.uuid_of("SIP 1"));
    }
  EXPECT_EQ(kernel_flow_instants, 1);
  EXPECT_EQ(model.track_uuid(kernel), model.uuid_of("SIP 1"));
  EXPECT_EQ(model.categories.at(api->first("track_event")->get("category_iids")), "api");
  EXPECT_EQ(model.categories.at(kernel->first("track_event")->get("category_iids")), "kernel");
  EXPECT_FALSE(track_event_named(model, trace, "inner", "TYPE_SLICE_BEGIN")
                   ->first("track_event")
                   ->has("flow_ids_old")); // no correlation id, no flow

  // Flow events: begin on the thread, terminating end on the device.
  int begins = 0, ends = 0;
  std::map<std::string, std::string> counters; // "track@ts" -> value
  for (const TextNode *p : trace.all("packet")) {
    const TextNode *e = p->first("track_event");
    if (e == nullptr) continue;
    if (e->get("flow_ids_old") == "9") {
      ++begins;
      EXPECT_EQ(model.time(p), 1100u);
    }
    if (e->get("terminating_flow_ids_old") == "9") {
      ++ends;
      EXPECT_EQ(model.time(p), 2000u);
    }
    if (e->get("type") == "TYPE_COUNTER") {
      EXPECT_FALSE(e->has("name_iid"));
      const std::string value =
          e->has("counter_value") ? e->get("counter_value") : e->get("double_counter_value");
      counters[model.track_name_by_uuid.at(model.track_uuid(p)) + "@" +
               std::to_string(model.time(p))] = value;
    }
  }
  EXPECT_EQ(begins, 1);
  EXPECT_EQ(ends, 1);
  EXPECT_EQ(counters, (std::map<std::string, std::string>{{"GCU memory@1000", "4096"},
                                                          {"GCU memory@2000", "8192"},
                                                          {"CPU utilization@1000", "12.5"}}));

  // The CPU sample: PerfSample with an interned call stack, root first.
  const TextNode *sample_packet = nullptr;
  for (const TextNode *p : trace.all("packet"))
    if (p->has("perf_sample")) sample_packet = p;
  ASSERT_NE(sample_packet, nullptr);
  EXPECT_EQ(model.time(sample_packet), 1200u);
  EXPECT_FALSE(sample_packet->has("sequence_flags"));
  const TextNode *sample = sample_packet->first("perf_sample");
  EXPECT_EQ(sample->get("pid"), "4242");
  EXPECT_EQ(sample->get("tid"), "4243");
  const TextNode *interned = sample_packet->first("interned_data");
  ASSERT_NE(interned, nullptr);
  std::map<std::string, std::string> functions, frame_function;
  for (const TextNode *n : interned->all("function_names"))
    functions[n->get("iid")] = n->get("str");
  for (const TextNode *fr : interned->all("frames")) {
    EXPECT_EQ(fr->get("mapping_id"), "1");
    frame_function[fr->get("iid")] = functions[fr->get("function_name_id")];
  }
  ASSERT_EQ(interned->all("mappings").size(), 1u);
  ASSERT_EQ(interned->all("callstacks").size(), 1u);
  const TextNode *callstack = interned->first("callstacks");
  EXPECT_EQ(callstack->get("iid"), sample->get("callstack_iid"));
  std::vector<std::string> root_first;
  for (const TextNode *id : callstack->all("frame_ids"))
    root_first.push_back(frame_function[id->value]);
  EXPECT_EQ(root_first, (std::vector<std::string>{"main", "run", "matmul_impl"}));
}

// Device work carries its correlation id as a flow id only when a call
// with that id came before it; ids no call has draw no arrow and cost
// nothing. Host slices keep theirs whatever comes.
TEST_F(PerfettoExporterTest, DeviceWorkCarriesAFlowIdOnlyWhenItsCallHasIt) {
  FakeExportHost host;
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "main", 0, 1, 1);
  const prof_track_id device = host.add_track(PROF_TRACK_DEVICE, "GPU 0", 0, 0, 0, 0);
  const prof_track_id stream = host.add_track(PROF_TRACK_CUSTOM, "stream 7", device, 0, 0, 7);
  const prof_track_id cpu = host.add_track(PROF_TRACK_CPU, "CPU 0", 0, 0, 0, 0);
  ASSERT_TRUE(run(host, {{host.slice(thread, "launch", 1000, 100, "api", 11),
                          host.slice(thread, "lonely", 1200, 100, "api", 12)},
                         {host.slice(stream, "kernel", 2000, 500, "kernel", 11),
                          host.slice(stream, "unlaunched", 3000, 500, "kernel", 13),
                          host.slice(cpu, "worker", 3000, 500, "cpu-schedule", 14)}}));
  const TextNode trace = testing::decode_trace(path_);
  const TraceModel model(trace);
  std::map<std::string, std::string> flow_of; // slice name: its flow id
  int instants = 0;
  for (const TextNode *p : trace.all("packet"))
    if (const TextNode *e = p->first("track_event"); e != nullptr) {
      if (e->get("type") == "TYPE_SLICE_BEGIN")
        flow_of[model.event_names.at(e->get("name_iid"))] = e->get("flow_ids_old");
      instants += e->get("type") == "TYPE_INSTANT";
    }
  EXPECT_EQ(flow_of["launch"], "11");
  EXPECT_EQ(flow_of["kernel"], "11");
  EXPECT_EQ(flow_of["lonely"], "12"); // its work may come later
  EXPECT_EQ(flow_of["unlaunched"], "");
  EXPECT_EQ(flow_of["worker"], "14"); // not on a device: as it was
  EXPECT_EQ(instants, 0);
}

TEST_F(PerfettoExporterTest, NestingSurvivesTiesAndUnorderedBatches) {
  FakeExportHost host;
  const prof_track_id t = host.add_track(PROF_TRACK_CUSTOM, "queue");
  // Children before parents, equal begin and end times, back-to-back slices,
  // a zero-length slice and identical intervals; the last batch is earliest.
  const std::vector<std::vector<prof_event>> batches{
      {host.slice(t, "child-same-begin", 100, 50), host.slice(t, "child-same-end", 150, 50),
       host.slice(t, "parent", 100, 100), host.slice(t, "next", 200, 20),
       host.slice(t, "zero", 210, 0), host.slice(t, "twin-a", 300, 10),
       host.slice(t, "twin-b", 300, 10)},
      {host.slice(t, "early", 10, 20), host.slice(t, "early-child", 10, 20)},
  };
  ASSERT_TRUE(run(host, batches));
  const TraceModel model(testing::decode_trace(path_));
  EXPECT_EQ(model.unmatched_ends, 0);
  const std::vector<ModelSlice> expected{
      {"queue", "early", 10, 20, 0},
      {"queue", "early-child", 10, 20, 1},
      {"queue", "parent", 100, 100, 0},
      {"queue", "child-same-begin", 100, 50, 1},
      {"queue", "child-same-end", 150, 50, 1},
      {"queue", "next", 200, 20, 0},
      {"queue", "zero", 210, 0, 1},
      {"queue", "twin-a", 300, 10, 0},
      {"queue", "twin-b", 300, 10, 1},
  };
  EXPECT_EQ(model.sorted_slices(), expected);
}

TEST_F(PerfettoExporterTest, LargeBatchesNestLikeSmallOnes) {
  // Batches of PerfettoExporter::kSortAheadEvents or more are ordered on a
  // second thread while the batch before them is written; a small batch in
  // between is written in place, after the pending one. Each group is a
  // parent with a child sharing its begin and one sharing its end, back to
  // back with the next group, also across batches (ties there fall back to
  // file order); a batch's events come shuffled.
  FakeExportHost host;
  const prof_track_id tracks[] = {host.add_track(PROF_TRACK_CUSTOM, "q0"),
                                  host.add_track(PROF_TRACK_CUSTOM, "q1")};
  std::vector<ModelSlice> expected;
  std::mt19937 random(3);
  const auto batch = [&](uint64_t start, size_t groups) {
    std::vector<prof_event> events;
    for (size_t g = 0; g < groups; ++g)
      for (const prof_track_id t : tracks) {
        const uint64_t ts = start + 100 * g;
        const std::string track = t == tracks[0] ? "q0" : "q1";
        events.push_back(host.slice(t, "parent", ts, 100));
        events.push_back(host.slice(t, "first", ts, 50));
        events.push_back(host.slice(t, "second", ts + 50, 50));
        expected.push_back({track, "parent", ts, 100, 0});
        expected.push_back({track, "first", ts, 50, 1});
        expected.push_back({track, "second", ts + 50, 50, 1});
      }
    std::shuffle(events.begin(), events.end(), random);
    return events;
  };
  const size_t large = PerfettoExporter::kSortAheadEvents / 6 + 1; // groups per large batch
  const uint64_t span = 100 * large;
  ASSERT_TRUE(run(host, {batch(0, large), batch(span, large), batch(2 * span, 10),
                         batch(2 * span + 1000, large)}));
  const TraceModel model(testing::decode_trace(path_));
  EXPECT_EQ(model.unmatched_ends, 0);
  std::sort(expected.begin(), expected.end(), [](const ModelSlice &a, const ModelSlice &b) {
    return std::tie(a.track, a.ts, a.depth, a.name) < std::tie(b.track, b.ts, b.depth, b.name);
  });
  EXPECT_EQ(model.sorted_slices(), expected);
}

TEST_F(PerfettoExporterTest, NestingOfSlicesLongerThanASecond) {
  // Durations past 2^30 ns leave the packed sort key; ties must still nest.
  FakeExportHost host;
  const prof_track_id t = host.add_track(PROF_TRACK_CUSTOM, "step");
  const uint64_t s = 1'000'000'000;
  ASSERT_TRUE(
      run(host, {{host.slice(t, "child", 5 * s, 2 * s), host.slice(t, "parent", 5 * s, 3 * s),
                  host.slice(t, "tail", 7 * s, s), host.slice(t, "twin-a", 9 * s, 2 * s),
                  host.slice(t, "twin-b", 9 * s, 2 * s)}}));
  const TraceModel model(testing::decode_trace(path_));
  EXPECT_EQ(model.unmatched_ends, 0);
  const std::vector<ModelSlice> expected{
      {"step", "parent", 5 * s, 3 * s, 0}, {"step", "child", 5 * s, 2 * s, 1},
      {"step", "tail", 7 * s, s, 1},       {"step", "twin-a", 9 * s, 2 * s, 0},
      {"step", "twin-b", 9 * s, 2 * s, 1},
  };
  EXPECT_EQ(model.sorted_slices(), expected);
}

TEST_F(PerfettoExporterTest, CountersOffCounterTracksAreLeftOutWithAWarning) {
  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  const prof_track_id counter = host.add_track(PROF_TRACK_COUNTER, "load", 0, 0, 0, -1, "%");
  ASSERT_TRUE(run(host, {{host.counter(queue, 5, 1.0), host.slice(counter, "bad", 1, 2),
                          host.sample(queue, 3, 0)}}));
  ASSERT_EQ(host.warnings().size(), 1u);
  EXPECT_NE(host.warnings()[0].find("3 events left out"), std::string::npos) << host.warnings()[0];
  const TextNode trace = testing::decode_trace(path_);
  for (const TextNode *p : trace.all("packet"))
    EXPECT_FALSE(p->has("track_event"));
}

TEST_F(PerfettoExporterTest, RequiresPath) {
  FakeExportHost host;
  host_has_path_ = true; // no path option at all
  EXPECT_FALSE(run(host, {}));
  EXPECT_EQ(host.errors(), (std::vector<std::string>{"perfetto: option path is required"}));
  EXPECT_TRUE(files().empty());
}

TEST_F(PerfettoExporterTest, RefusesExistingFileUnlessOverwrite) {
  { std::ofstream(path_) << "keep me"; }
  FakeExportHost host;
  const prof_track_id t = host.add_track(PROF_TRACK_CUSTOM, "queue");
  EXPECT_FALSE(run(host, {{host.slice(t, "a", 1, 2)}}));
  EXPECT_EQ(host.errors(), (std::vector<std::string>{"perfetto: '" + path_ + "' already exists"}));
  std::ifstream kept(path_);
  std::string text;
  std::getline(kept, text);
  EXPECT_EQ(text, "keep me");
  EXPECT_EQ(files(), (std::vector<std::string>{"out.perfetto-trace"}));

  FakeExportHost again;
  const prof_track_id t2 = again.add_track(PROF_TRACK_CUSTOM, "queue");
  again.set_option("overwrite", "true");
  ASSERT_TRUE(run(again, {{again.slice(t2, "a", 1, 2)}}));
  // The main sequence's first packet, the descriptor, the track's sequence's
  // first packet, begin, end.
  EXPECT_EQ(testing::decode_trace(path_).all("packet").size(), 5u);
  EXPECT_EQ(files(), (std::vector<std::string>{"out.perfetto-trace"}));
}

TEST_F(PerfettoExporterTest, FolderPathGetsPidNamedFile) {
  FakeExportHost host;
  host.set_target(777, "app");
  host.set_option("path", dir_.path()); // an existing folder, no trailing '/'
  host_has_path_ = true;
  ASSERT_TRUE(run(host, {}));
  EXPECT_EQ(files(), (std::vector<std::string>{"prof-777.perfetto-trace"}));

  FakeExportHost nested;
  nested.set_target(778, "app");
  nested.set_option("path", dir_.file("vp") + "/"); // created on demand
  ASSERT_TRUE(run(nested, {}));
  EXPECT_TRUE(fs::exists(dir_.file("vp/prof-778.perfetto-trace")));
  EXPECT_EQ(output::resolve_output_path("x.pftrace", 1, ".perfetto-trace"), "x.pftrace");
}

TEST_F(PerfettoExporterTest, AbandonedOrFailedExportLeavesNothing) {
  FakeExportHost host;
  const prof_track_id t = host.add_track(PROF_TRACK_CUSTOM, "queue");
  host.set_option("path", path_);
  host_has_path_ = true;
  {
    PerfettoExporter exporter(host.host());
    ASSERT_TRUE(exporter.begin());
    const prof_event e = host.slice(t, "a", 1, 2);
    ASSERT_TRUE(exporter.consume(&e, 1));
    EXPECT_EQ(files().size(), 1u); // the temporary file
  }                                // destroyed without end()
  EXPECT_TRUE(files().empty());

  // The final name turns into a non-empty folder before end(): rename fails.
  PerfettoExporter exporter(host.host());
  ASSERT_TRUE(exporter.begin());
  fs::create_directories(fs::path(path_) / "in-the-way");
  EXPECT_FALSE(exporter.end());
  ASSERT_EQ(host.errors().size(), 1u);
  EXPECT_NE(host.errors()[0].find("perfetto: cannot rename"), std::string::npos)
      << host.errors()[0];
  EXPECT_EQ(files(), (std::vector<std::string>{"out.perfetto-trace"})); // the folder only
  EXPECT_TRUE(fs::is_directory(path_));
}

} // namespace
} // namespace prof::perfetto

namespace prof::perfetto {
namespace {

// A merged report holds processes of several hosts that may share a pid (and
// tids): each keeps its own, the UI must not fold them into one process.
TEST_F(PerfettoExporterTest, ProcessesOfOtherHostsReusingAPidStayApart) {
  FakeExportHost host;
  const prof_track_id a = host.add_track(PROF_TRACK_PROCESS, "train [host-a rank 0]", 0, 100);
  const prof_track_id a_main = host.add_track(PROF_TRACK_THREAD, "a-main", a, 100, 100);
  const prof_track_id b = host.add_track(PROF_TRACK_PROCESS, "train [host-b rank 1]", 0, 100);
  const prof_track_id b_main = host.add_track(PROF_TRACK_THREAD, "b-main", b, 100, 100);
  const prof_track_id b_worker = host.add_track(PROF_TRACK_THREAD, "b-worker", b, 100, 101);
  ASSERT_TRUE(
      run(host, {{host.slice(a_main, "step", 1000, 10), host.slice(b_main, "step", 1000, 10),
                  host.slice(b_worker, "load", 1005, 3)}}))
      << ::testing::PrintToString(host.errors());
  const TextNode trace = testing::decode_trace(path_);
  const TraceModel model(trace);
  const std::string pid_a = model.descriptor("train [host-a rank 0]")->first("process")->get("pid");
  const std::string pid_b = model.descriptor("train [host-b rank 1]")->first("process")->get("pid");
  EXPECT_EQ(pid_a, "100");
  EXPECT_NE(pid_b, pid_a);
  EXPECT_EQ(model.descriptor("a-main")->first("thread")->get("pid"), pid_a);
  EXPECT_EQ(model.descriptor("a-main")->first("thread")->get("tid"), "100");
  EXPECT_EQ(model.descriptor("b-main")->first("thread")->get("pid"), pid_b);
  EXPECT_EQ(model.descriptor("b-main")->first("thread")->get("tid"), pid_b);
  EXPECT_EQ(model.descriptor("b-worker")->first("thread")->get("pid"), pid_b);
  EXPECT_EQ(model.descriptor("b-worker")->first("thread")->get("tid"), "101");
}

} // namespace
} // namespace prof::perfetto

namespace prof::perfetto {
namespace {

// A process that exec'd after its first events is described again at the
// end under its new name: the trace processor keeps the latest.
TEST_F(PerfettoExporterTest, ARenamedProcessAndThreadAreDescribedAgain) {
  FakeExportHost host;
  host.set_option("path", path_);
  ASSERT_TRUE(testing::run_renamed_during_capture<PerfettoExporter>(host))
      << ::testing::PrintToString(host.errors());
  const TextNode trace = testing::decode_trace(path_);
  const TraceModel model(trace);
  EXPECT_EQ(model.duplicate_descriptors, 2) << "the process and its main thread, once more";
  const TextNode *renamed = model.descriptor("./app (rank 0)");
  ASSERT_NE(renamed, nullptr);
  EXPECT_EQ(renamed->get("uuid"), model.uuid_of("mpirun"));
  EXPECT_EQ(renamed->first("process")->get("process_name"), "./app (rank 0)");
  EXPECT_EQ(renamed->first("process")->get("pid"), "77");
  const TextNode *main_thread = model.descriptor("app");
  ASSERT_NE(main_thread, nullptr);
  EXPECT_EQ(main_thread->first("thread")->get("thread_name"), "app");
  EXPECT_EQ(main_thread->first("thread")->get("tid"), "77");
  EXPECT_EQ(model.descriptor("helper")->first("thread")->get("tid"), "78");
  EXPECT_EQ(model.descriptor_packet.size(), 3u);
}

} // namespace
} // namespace prof::perfetto
