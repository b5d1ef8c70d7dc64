// The importer as a whole: its probe, the kinds it gives named tracks, a
// round trip through the perfetto exporter (what prof writes comes back as
// it was), and the checked-in sample trace written the way Perfetto's SDK
// writes one.
#include "perfetto_exporter.hpp"
#include "read/track_kinds.hpp"
#include "sdk_style_trace.hpp"
#include "trace_builder.hpp"

#include "tests/support/exporter_test.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <span>
#include <tuple>

namespace prof::perfetto::testing {
namespace {

namespace te = pf::track_event;

uint32_t probe(std::string_view bytes, std::string_view path = "trace.bin") {
  return PerfettoImporter::probe(
      path, std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()),
                                     std::min<size_t>(bytes.size(), 4096)));
}

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(PerfettoImporterProbe, ZeroForWhatIsNoTrace) {
  EXPECT_EQ(probe(""), 0u);
  EXPECT_EQ(probe("plain text, and no trace at all\n"), 0u);
  EXPECT_EQ(probe(std::string(64, '\0')), 0u);
  EXPECT_EQ(probe("\n\n# a comment line\nand more\n"), 0u);
  EXPECT_EQ(probe("{\"traceEvents\": []}", "trace.json"), 0u);
  EXPECT_EQ(probe(std::string(4096, '\x0a')), 0u); // empty packets, then a packet of length 10
}

TEST(PerfettoImporterProbe, HighForPacketsThatCheckOut) {
  TraceBuilder b;
  b.process(1, 10, "train").thread(2, 10, 11, "main").thread(3, 10, 12, "worker");
  EXPECT_EQ(probe(b.bytes()), 95u);
  // A long trace whose head ends in the middle of its fourth packet.
  for (int i = 0; i < 300; ++i)
    b.track(100 + i, 1, "a track with a long name, " + std::to_string(i));
  ASSERT_GT(b.bytes().size(), 4096u);
  EXPECT_EQ(probe(b.bytes()), 95u);
  // One packet larger than the head: only its first field can be seen.
  TraceBuilder big;
  big.track(1, 0, std::string(5000, 'x'));
  EXPECT_EQ(probe(big.bytes()), 60u);
  // Damaged after the first packet: no.
  std::string damaged = TraceBuilder().thread(2, 10, 11, "main").bytes() + "\x05garbage";
  EXPECT_EQ(probe(damaged), 0u);
  // Unless its name says it is one: then the importer says what broke where.
  EXPECT_EQ(probe(damaged, "run.perfetto-trace"), 10u);
  EXPECT_EQ(probe("plain text, and no trace at all\n", "run.perfetto-trace"), 0u);
}

TEST(PerfettoImporterTrackKinds, NamesAndPlacesAsProfsSourcesGiveThem) {
  const auto kind = [](std::string_view name, int parent, bool holds = false) {
    const TrackKind k = named_track_kind(name, parent, holds);
    return std::pair{static_cast<int>(k.kind), k.index};
  };
  EXPECT_EQ(kind("GPU 0", 0, true), std::pair(int{PROF_TRACK_DEVICE}, 0));
  EXPECT_EQ(kind("GCU 3", 0, true), std::pair(int{PROF_TRACK_DEVICE}, 3));
  EXPECT_EQ(kind("CPU 12", 0), std::pair(int{PROF_TRACK_CPU}, 12));
  EXPECT_EQ(kind("eth0", 0), std::pair(int{PROF_TRACK_NETWORK}, -1));
  EXPECT_EQ(kind("ens5f1", 0), std::pair(int{PROF_TRACK_NETWORK}, -1));
  EXPECT_EQ(kind("CPU utilization", 0, true), std::pair(int{PROF_TRACK_CUSTOM}, -1));
  EXPECT_EQ(kind("Stream 7", PROF_TRACK_DEVICE), std::pair(int{PROF_TRACK_ENGINE}, 7));
  EXPECT_EQ(kind("Memory", PROF_TRACK_DEVICE), std::pair(int{PROF_TRACK_CUSTOM}, -1));
  EXPECT_EQ(kind("Sync", PROF_TRACK_DEVICE), std::pair(int{PROF_TRACK_CUSTOM}, -1));
  EXPECT_EQ(kind("Cluster 1", PROF_TRACK_DEVICE, true), std::pair(int{PROF_TRACK_CLUSTER}, 1));
  EXPECT_EQ(kind("SIP", PROF_TRACK_CLUSTER, true), std::pair(int{PROF_TRACK_ENGINE}, -1));
  EXPECT_EQ(kind("SIP 2", PROF_TRACK_ENGINE), std::pair(int{PROF_TRACK_ENGINE}, 2));
  EXPECT_EQ(kind("world (4 ranks)", PROF_TRACK_PROCESS, true), std::pair(int{PROF_TRACK_COMM}, -1));
  EXPECT_EQ(kind("rank 2", PROF_TRACK_COMM, true), std::pair(int{PROF_TRACK_COMM}, 2));
  EXPECT_EQ(kind("async", PROF_TRACK_PROCESS), std::pair(int{PROF_TRACK_CUSTOM}, -1));
  EXPECT_EQ(trailing_index("Stream 12"), 12);
  EXPECT_EQ(trailing_index("Stream12"), -1);
  EXPECT_EQ(trailing_index("12"), -1);
}

/// A capture with one of most things prof records, exported by the perfetto
/// exporter.
struct ExportedCapture {
  prof::testing::FakeExportHost host;
  prof::testing::ScratchDir dir{"prof-perfetto-import"};
  std::vector<std::vector<prof_event>> batches;

  ExportedCapture() {
    host.set_target(4242, "python train.py");
    const auto process = host.add_track(PROF_TRACK_PROCESS, "python", 0, 4242);
    const auto thread = host.add_track(PROF_TRACK_THREAD, "main", process, 4242, 4243);
    const auto device = host.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
    const auto cluster = host.add_track(PROF_TRACK_CLUSTER, "Cluster 0", device, 0, 0, 0);
    const auto engine = host.add_track(PROF_TRACK_ENGINE, "SIP", cluster, 0, 0, -1);
    const auto index = host.add_track(PROF_TRACK_ENGINE, "SIP 1", engine, 0, 0, 1);
    const auto memory = host.add_track(PROF_TRACK_COUNTER, "GCU memory", device, 0, 0, -1, "bytes");
    const auto load = host.add_track(PROF_TRACK_COUNTER, "CPU utilization", 0, 0, 0, -1, "%");
    const auto stack = host.add_stack({"matmul_impl", "run", "main"});
    const uint64_t args =
        host.add_args({host.uint_arg("bytes", 4096), host.string_arg("shape", "[2, 8]"),
                       host.int_arg("delta", -5), host.double_arg("ratio", 0.25)});
    // Device work first, and a parent slice in a later batch than its child:
    // batches are not ordered across producers.
    batches.push_back({host.with_args(host.slice(index, "matmul", 2000, 500, "kernel", 7), 0,
                                      PROF_CATEGORY_KERNEL),
                       host.counter(memory, 2000, 8192), host.flow(index, 2000, 9, PROF_FLOW_END)});
    batches.push_back({host.slice(thread, "inner", 1000, 100, "api"),
                       host.with_args(host.slice(thread, "topsLaunchKernel", 1000, 300, "api", 7),
                                      args, PROF_CATEGORY_RUNTIME_API),
                       host.flow(thread, 1100, 9, PROF_FLOW_BEGIN),
                       // Overlaps the launch without nesting (a scheduling state).
                       host.slice(thread, "Running", 1200, 250, "cpu-schedule"),
                       host.sample(thread, 1200, stack), host.instant(thread, "marker", 1500),
                       host.counter(memory, 1000, 4096), host.counter(load, 1000, 12.5)});
    batches.push_back({host.with_args(host.slice(thread, "step", 900, 1000, "train"), 0,
                                      PROF_CATEGORY_ANNOTATION)});
    // A blocking call's stack (osrt's): no CPU sample, so not written as one.
    prof_event blocked = host.sample(thread, 1250, stack);
    blocked.category = host.intern("osrt");
    batches.back().push_back(blocked);
    host.session().realtime_anchor_ns = 1'700'000'000'000'000'000;
    host.session().monotonic_anchor_ns = 500;
    host.set_option("path", dir.file("out.perfetto-trace"));
    PerfettoExporter exporter(host.host());
    EXPECT_TRUE(prof::testing::run_exporter(exporter, batches));
  }
  std::string bytes() const { return read_file(dir.file("out.perfetto-trace")); }
};

TEST(PerfettoImporterRoundTrip, WhatTheExporterWritesComesBackAsItWas) {
  ExportedCapture capture;
  const std::string bytes = capture.bytes();
  EXPECT_EQ(probe(bytes, "out.perfetto-trace"), 95u);
  const auto imported = import(bytes);
  ASSERT_TRUE(imported->ok) << ::testing::PrintToString(imported->errors());

  using Kind = std::tuple<std::string, int, int>; // name, kind, index
  std::set<Kind> kinds;
  for (const auto &t : imported->host.tracks())
    kinds.insert({t.name, t.kind, t.index});
  EXPECT_EQ(kinds, (std::set<Kind>{{"python", PROF_TRACK_PROCESS, -1},
                                   {"main", PROF_TRACK_THREAD, -1},
                                   {"GCU 0", PROF_TRACK_DEVICE, 0},
                                   {"Cluster 0", PROF_TRACK_CLUSTER, 0},
                                   {"SIP", PROF_TRACK_ENGINE, -1},
                                   {"SIP 1", PROF_TRACK_ENGINE, 1},
                                   {"GCU memory", PROF_TRACK_COUNTER, -1},
                                   {"CPU utilization", PROF_TRACK_COUNTER, -1}}));
  EXPECT_EQ(imported->track("main").tid, 4243);
  EXPECT_EQ(imported->track("main").parent, imported->track("python").id);
  EXPECT_EQ(imported->track("SIP 1").parent, imported->track("SIP").id);
  EXPECT_EQ(imported->track("GCU memory").unit, "bytes");
  EXPECT_EQ(imported->track("CPU utilization").unit, "%");

  const auto launch = imported->slices("topsLaunchKernel");
  ASSERT_EQ(launch.size(), 1u);
  EXPECT_EQ(launch[0].begin, 1000u);
  EXPECT_EQ(launch[0].duration, 300u);
  EXPECT_EQ(launch[0].category, "api");
  EXPECT_EQ(launch[0].kind, PROF_CATEGORY_RUNTIME_API);
  EXPECT_EQ(launch[0].correlation, 7u);
  EXPECT_EQ(launch[0].args,
            (std::map<std::string, std::string>{
                {"bytes", "4096"}, {"shape", "[2, 8]"}, {"delta", "-5"}, {"ratio", "0.25"}}));
  EXPECT_EQ(launch[0].arg_types.at("delta"), PROF_ARG_INT);
  EXPECT_EQ(launch[0].arg_types.at("bytes"), PROF_ARG_UINT);
  const auto kernel = imported->slices("matmul");
  ASSERT_EQ(kernel.size(), 1u);
  EXPECT_EQ(kernel[0].kind, PROF_CATEGORY_KERNEL);
  EXPECT_EQ(kernel[0].correlation, 7u);
  EXPECT_EQ(kernel[0].track, imported->track("SIP 1").id);
  EXPECT_EQ(imported->slices("inner").at(0).duration, 100u);
  EXPECT_EQ(imported->slices("Running").at(0).begin, 1200u);
  EXPECT_EQ(imported->slices("Running").at(0).duration, 250u);
  EXPECT_EQ(imported->slices("step").at(0).duration, 1000u);
  EXPECT_EQ(imported->slices("step").at(0).kind, PROF_CATEGORY_ANNOTATION);
  ASSERT_EQ(imported->host.instants().size(), 1u);
  EXPECT_EQ(imported->host.instants()[0].name, "marker");
  EXPECT_EQ(imported->host.instants()[0].ts, 1500u);

  const auto flows = imported->host.flows();
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(std::tuple(flows[0].ts, flows[0].id, flows[0].phase, flows[0].track),
            std::tuple(uint64_t{1100}, uint64_t{9}, PROF_FLOW_BEGIN, imported->track("main").id));
  EXPECT_EQ(std::tuple(flows[1].ts, flows[1].phase, flows[1].track),
            std::tuple(uint64_t{2000}, PROF_FLOW_END, imported->track("SIP 1").id));

  const auto memory = imported->host.values(imported->track("GCU memory").id);
  ASSERT_EQ(memory.size(), 2u);
  std::set<std::pair<uint64_t, double>> values;
  for (const auto &c : memory)
    values.insert({c.ts, c.value});
  EXPECT_EQ(values, (std::set<std::pair<uint64_t, double>>{{1000, 4096}, {2000, 8192}}));
  EXPECT_EQ(imported->host.values(imported->track("CPU utilization").id).at(0).value, 12.5);

  const auto samples = imported->host.samples();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].ts, 1200u);
  EXPECT_EQ(samples[0].track, imported->track("main").id);
  EXPECT_EQ(imported->host.frames(samples[0].stack),
            (std::vector<std::string>{"matmul_impl", "run", "main"}));

  // The wall clock: 1.7e18 at 500 on the session clock, so 1.7e18 + 400 at the start.
  EXPECT_EQ(imported->realtime_anchor, 1'700'000'000'000'000'400u);
  EXPECT_EQ(imported->monotonic_anchor, 900u);
  EXPECT_TRUE(imported->warnings().empty()) << ::testing::PrintToString(imported->warnings());
  EXPECT_EQ(imported->program, "python");
  EXPECT_EQ(imported->pids, (std::vector<int32_t>{4242}));
  EXPECT_EQ(imported->start, 900u);
}

TEST(PerfettoImporterSample, TheCheckedInSampleIsWhatTheBuilderWrites) {
  const std::string path = std::string(PROF_SOURCE_DIR) + "/" + kSdkStyleTracePath;
  const std::string built = sdk_style_trace();
  if (std::getenv("PROF_UPDATE_FIXTURES") != nullptr) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << built;
  }
  EXPECT_EQ(read_file(path), built)
      << path << " differs from sdk_style_trace(): run this test with PROF_UPDATE_FIXTURES=1";
}

TEST(PerfettoImporterSample, ReadsTheSdkStyleTrace) {
  const auto imported = import(sdk_style_trace());
  ASSERT_TRUE(imported->ok) << ::testing::PrintToString(imported->errors());
  EXPECT_EQ(imported->program, "trainer");
  EXPECT_EQ(imported->pids, (std::vector<int32_t>{1234}));
  EXPECT_GT(imported->realtime_anchor, 0u);
  // Three steps of forward and backward on the main thread, a loader on the other.
  EXPECT_EQ(imported->slices("step").size(), 3u);
  EXPECT_EQ(imported->slices("forward").size(), 3u);
  EXPECT_EQ(imported->slices("backward").size(), 3u);
  EXPECT_EQ(imported->slices("load batch").size(), 3u);
  for (const auto &s : imported->slices("forward")) {
    EXPECT_EQ(s.duration, 4'000'000u);
    EXPECT_EQ(s.category, "model");
    EXPECT_EQ(s.args.at("layers"), "12");
  }
  EXPECT_EQ(imported->slices("load batch").at(0).args.at("source"), "shard-0");
  EXPECT_EQ(imported->host.values(imported->track("queue depth").id).size(), 3u);
  EXPECT_EQ(imported->host.flows().size(), 6u);
  EXPECT_TRUE(imported->warnings().empty()) << ::testing::PrintToString(imported->warnings());
}

} // namespace
} // namespace prof::perfetto::testing
