// The kineto exporter through a fake export host: rows, categories and
// arguments in Kineto's names, steps as ProfilerStep#N written once, flows
// paired whatever their order, distributedInfo and the clock.
#include "kineto_args.hpp"
#include "kineto_exporter.hpp"

#include "tests/support/exporter_test.hpp"

#include <prof/activity/json_reader.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace prof::kineto {
namespace {

using activity::JsonType;
using activity::JsonValue;
using testing::FakeExportHost;

class KinetoExporterTest : public testing::ExporterTest<KinetoExporter> {
protected:
  KinetoExporterTest() : ExporterTest("out.pt.trace.json") {}
  JsonValue exported(FakeExportHost &host, const std::vector<prof_event> &events) {
    EXPECT_TRUE(run(host, {events}));
    std::ifstream in(path_);
    return activity::parse_json(
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
  }
};

/// The events of phase `ph` named `name`.
std::vector<const JsonValue *> events_named(const JsonValue &trace, const std::string &ph,
                                            const std::string &name) {
  std::vector<const JsonValue *> found;
  for (const JsonValue &e : trace.find("traceEvents")->array)
    if (e.find("ph")->string == ph && e.find("name") && e.find("name")->string == name)
      found.push_back(&e);
  return found;
}

TEST_F(KinetoExporterTest, RowsCategoriesAndArguments) {
  FakeExportHost host;
  const prof_track_id process = host.add_track(PROF_TRACK_PROCESS, "python3 (rank 2)", 0, 500);
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "main", process, 500, 501);
  const prof_track_id gpu = host.add_track(PROF_TRACK_DEVICE, "GPU 1", 0, 0, 0, 1);
  const prof_track_id stream = host.add_track(PROF_TRACK_ENGINE, "Stream 7", gpu, 0, 0, 7);
  const prof_track_id memory = host.add_track(PROF_TRACK_CUSTOM, "Memory", gpu);
  const prof_track_id counter =
      host.add_track(PROF_TRACK_COUNTER, "Memory used", gpu, 0, 0, -1, "bytes");
  host.session().start_ns = 1'000;
  host.session().realtime_anchor_ns = 5'000'000;
  host.session().monotonic_anchor_ns = 2'000;
  host.session().rank = "2";
  const uint64_t op_args =
      host.add_args({host.string_arg("pass", "forward"), host.int_arg("sequence number", 9),
                     host.string_arg("input shapes", "[[2, 8], []]"),
                     host.string_arg("input types", "[float, Scalar]")});
  const uint64_t kernel_args =
      host.add_args({host.string_arg("grid", "4x1x1"), host.uint_arg("stream", 7)});
  const uint64_t comm_args =
      host.add_args({host.string_arg("communicator", "nccl:0"), host.uint_arg("sequence", 3),
                     host.string_arg("operation", "all_reduce"), host.int_arg("elements", 256),
                     host.string_arg("dtype", "float"), host.int_arg("group size", 4),
                     host.string_arg("group ranks", "0-3")});
  const uint64_t free_args =
      host.add_args({host.string_arg("operation", "free"), host.uint_arg("address", 4096),
                     host.uint_arg("bytes", 512), host.string_arg("memory", "device")});
  const JsonValue trace = exported(
      host, {FakeExportHost::with_args(host.slice(thread, "aten::mm", 1'500, 1'000, "torch"),
                                       op_args, PROF_CATEGORY_OPERATOR),
             FakeExportHost::with_args(host.slice(stream, "gemm", 2'000, 500, "k", 42), kernel_args,
                                       PROF_CATEGORY_KERNEL),
             FakeExportHost::with_args(host.slice(thread, "nccl:all_reduce", 3'000, 10), comm_args,
                                       PROF_CATEGORY_COMMUNICATION),
             FakeExportHost::with_args(host.instant(memory, "free", 3'500), free_args,
                                       PROF_CATEGORY_MEMORY),
             host.counter(counter, 3'600, 1.0)});
  const JsonValue &mm = *events_named(trace, "X", "aten::mm").at(0);
  EXPECT_EQ(mm.find("cat")->string, "cpu_op");
  EXPECT_EQ(mm.find("pid")->number, 500);
  EXPECT_EQ(mm.find("tid")->number, 501);
  EXPECT_EQ(mm.find("ts")->number, 0.5); // µs from the session's start
  EXPECT_EQ(mm.find("dur")->number, 1.0);
  EXPECT_EQ(mm.find("args")->find("Sequence number")->number, 9);
  EXPECT_EQ(mm.find("args")->find("Input Dims")->array.at(0).array.at(1).number, 8);
  EXPECT_EQ(mm.find("args")->find("Input type")->array.at(1).string, "Scalar");
  EXPECT_EQ(mm.find("args")->find("pass"), nullptr);
  const JsonValue &gemm = *events_named(trace, "X", "gemm").at(0);
  EXPECT_EQ(gemm.find("cat")->string, "kernel");
  EXPECT_EQ(gemm.find("pid")->number, 1);
  EXPECT_EQ(gemm.find("tid")->number, 7);
  EXPECT_EQ(gemm.find("args")->find("grid")->array.size(), 3u);
  EXPECT_EQ(gemm.find("args")->find("correlation")->number, 42);
  const JsonValue &comm = *events_named(trace, "X", "nccl:all_reduce").at(0);
  EXPECT_EQ(comm.find("cat")->string, "user_annotation");
  const JsonValue &comm_args_out = *comm.find("args");
  EXPECT_EQ(comm_args_out.find("Process Group Name")->string, "0");
  EXPECT_EQ(comm_args_out.find("Seq")->number, 3);
  EXPECT_EQ(comm_args_out.find("In msg nelems")->number, 256);
  EXPECT_EQ(comm_args_out.find("dtype")->string, "Float");
  EXPECT_EQ(comm_args_out.find("Process Group Ranks")->string, "[0, 1, 2, 3]");
  // A device's memory event on the host's process, Kineto's way.
  const JsonValue &free = *events_named(trace, "i", "[memory]").at(0);
  EXPECT_EQ(free.find("pid")->number, 500);
  EXPECT_EQ(free.find("args")->find("Bytes")->number, -512);
  EXPECT_EQ(free.find("args")->find("Device Type")->number, 1);
  EXPECT_EQ(free.find("args")->find("Device Id")->number, 1);
  // Process names without the rank (distributedInfo has it), devices by name.
  EXPECT_EQ(events_named(trace, "M", "process_name").at(0)->find("args")->find("name")->string,
            "python3");
  const JsonValue *info = trace.find("distributedInfo");
  EXPECT_EQ(info->find("rank")->number, 2);
  EXPECT_EQ(info->find("world_size")->number, 4);
  EXPECT_EQ(info->find("backend")->string, "nccl");
  // The wall clock of the session's start: 5 ms at 2 us, so 4.999 ms.
  EXPECT_EQ(trace.find("baseTimeNanoseconds")->number, 4'999'000);
  EXPECT_TRUE(events_named(trace, "C", "Memory used").empty());
}

TEST_F(KinetoExporterTest, StepsAreProfilerStepRangesWrittenOnce) {
  FakeExportHost host;
  const prof_track_id process = host.add_track(PROF_TRACK_PROCESS, "python3", 0, 10);
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "main", process, 10, 10);
  const uint64_t step4 = host.add_args({host.uint_arg("step", 4)});
  const uint64_t step5 = host.add_args({host.uint_arg("step", 5)});
  const JsonValue trace = exported(
      host, {FakeExportHost::with_args(host.slice(thread, "ProfilerStep#4", 100, 50, "torch"), 0,
                                       PROF_CATEGORY_ANNOTATION),
             FakeExportHost::with_args(host.slice(thread, "step", 100, 50, "torch/step"), step4,
                                       PROF_CATEGORY_ANNOTATION),
             // An optimizer step without a ProfilerStep range.
             FakeExportHost::with_args(host.slice(thread, "step", 200, 50, "torch/step"), step5,
                                       PROF_CATEGORY_ANNOTATION),
             // A ProfilerStep range no step covers is kept.
             FakeExportHost::with_args(host.slice(thread, "ProfilerStep#9", 300, 50, "torch"), 0,
                                       PROF_CATEGORY_ANNOTATION)});
  EXPECT_EQ(events_named(trace, "X", "ProfilerStep#4").size(), 1u);
  EXPECT_EQ(events_named(trace, "X", "ProfilerStep#5").size(), 1u);
  EXPECT_EQ(events_named(trace, "X", "ProfilerStep#9").size(), 1u);
  EXPECT_TRUE(events_named(trace, "X", "step").empty());
  EXPECT_EQ(events_named(trace, "X", "ProfilerStep#5").at(0)->find("cat")->string,
            "user_annotation");
  // No rank, no collectives: rank 0 for HTA, no world size, no clock.
  EXPECT_EQ(trace.find("distributedInfo")->find("rank")->number, 0);
  EXPECT_EQ(trace.find("distributedInfo")->find("world_size"), nullptr);
  EXPECT_EQ(trace.find("baseTimeNanoseconds"), nullptr);
}

TEST_F(KinetoExporterTest, DeviceWorkAsHtaReadsIt) {
  FakeExportHost host;
  const prof_track_id gpu = host.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
  const prof_track_id stream = host.add_track(PROF_TRACK_ENGINE, "Stream 5", gpu, 0, 0, 5);
  const prof_track_id dma = host.add_track(PROF_TRACK_ENGINE, "CDMA 2", gpu, 0, 0, 2);
  host.session().rank = "3";
  const uint64_t comm_args = host.add_args({host.string_arg("operation", "all_reduce")});
  const JsonValue trace = exported(
      host, {FakeExportHost::with_args(host.slice(stream, "eccl_all_reduce", 100, 50, "Op", 7),
                                       comm_args, PROF_CATEGORY_COMMUNICATION),
             FakeExportHost::with_args(host.slice(dma, "dma_h2d", 200, 10, "DMA"), 0,
                                       PROF_CATEGORY_MEMCPY_HTOD),
             FakeExportHost::with_args(host.slice(dma, "Memset", 220, 10, "DMA"), 0,
                                       PROF_CATEGORY_MEMSET),
             FakeExportHost::with_args(host.slice(stream, "wait stream", 240, 10, "TS"), 0,
                                       PROF_CATEGORY_SYNC)});
  // A collective on the device: a kernel named as NCCL's, which HTA counts
  // as communication, with its stream (the row's) and device.
  const JsonValue &comm = *events_named(trace, "X", "ncclDevKernel_eccl_all_reduce").at(0);
  EXPECT_EQ(comm.find("cat")->string, "kernel");
  EXPECT_EQ(comm.find("args")->find("stream")->number, 5);
  EXPECT_EQ(comm.find("args")->find("device")->number, 0);
  EXPECT_EQ(comm.find("args")->find("correlation")->number, 7);
  EXPECT_EQ(comm.find("args")->find("Collective name")->string, "all_reduce");
  // Copies, sets and syncs named so HTA tells them from compute.
  const JsonValue &copy = *events_named(trace, "X", "Memcpy HtoD (dma_h2d)").at(0);
  EXPECT_EQ(copy.find("cat")->string, "gpu_memcpy");
  EXPECT_EQ(copy.find("args")->find("stream")->number, 2);
  EXPECT_EQ(events_named(trace, "X", "Memset").size(), 1u);
  EXPECT_EQ(events_named(trace, "X", "Sync (wait stream)").size(), 1u);
  EXPECT_EQ(events_named(trace, "X", "Sync (wait stream)").at(0)->find("cat")->string, "cuda_sync");
  // HTA finds the rank by the pattern "rank":\s+N.
  std::ifstream in(path_);
  const std::string text(std::istreambuf_iterator<char>(in), {});
  EXPECT_NE(text.find("\"rank\": 3"), std::string::npos);
}

// A wait on the host (a GCU driver's synchronize call) is a runtime call, as
// Kineto writes cudaStreamSynchronize; only a device's waits are cuda_sync.
TEST_F(KinetoExporterTest, AHostWaitIsARuntimeCall) {
  FakeExportHost host;
  const prof_track_id process = host.add_track(PROF_TRACK_PROCESS, "app", 0, 10);
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "main", process, 10, 10);
  const JsonValue trace = exported(
      host,
      {FakeExportHost::with_args(host.slice(thread, "gcuStreamSynchronize", 100, 50, "api", 9), 0,
                                 PROF_CATEGORY_SYNC)});
  const JsonValue &wait = *events_named(trace, "X", "gcuStreamSynchronize").at(0);
  EXPECT_EQ(wait.find("cat")->string, "cuda_runtime");
  EXPECT_EQ(wait.find("args")->find("correlation")->number, 9);
}

TEST_F(KinetoExporterTest, FlowsArePairedWhateverTheirOrder) {
  FakeExportHost host;
  const prof_track_id process = host.add_track(PROF_TRACK_PROCESS, "python3", 0, 10);
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "main", process, 10, 10);
  const prof_track_id other = host.add_track(PROF_TRACK_THREAD, "autograd", process, 10, 11);
  const prof_track_id gpu = host.add_track(PROF_TRACK_DEVICE, "GPU 0", 0, 0, 0, 0);
  const prof_track_id stream = host.add_track(PROF_TRACK_ENGINE, "Stream 3", gpu, 0, 0, 3);
  const JsonValue trace =
      exported(host, {host.flow(stream, 20, 1, PROF_FLOW_END),   // the end first
                      host.flow(thread, 10, 1, PROF_FLOW_BEGIN), // a launch to its kernel
                      host.flow(thread, 30, 2, PROF_FLOW_BEGIN), // forward to backward
                      host.flow(other, 40, 2, PROF_FLOW_END),
                      host.flow(thread, 50, 3, PROF_FLOW_BEGIN)}); // no end: left out
  std::vector<std::string> flows;
  for (const JsonValue &e : trace.find("traceEvents")->array) {
    const std::string ph = e.find("ph")->string;
    if (ph != "s" && ph != "f") continue;
    flows.push_back(ph + " " + e.find("cat")->string + " " +
                    std::to_string(static_cast<int>(e.find("id")->number)) + " " +
                    std::to_string(static_cast<int>(e.find("pid")->number)) + "/" +
                    std::to_string(static_cast<int>(e.find("tid")->number)) +
                    (e.find("bp") ? " bp=" + e.find("bp")->string : ""));
  }
  EXPECT_EQ(flows, (std::vector<std::string>{"s ac2g 1 10/10", "f ac2g 1 0/3 bp=e",
                                             "s fwdbwd 2 10/10", "f fwdbwd 2 10/11 bp=e"}));
}

TEST_F(KinetoExporterTest, RefusesAnExistingFileUnlessOverwrite) {
  FakeExportHost host;
  { std::ofstream(path_) << "keep"; }
  EXPECT_FALSE(run(host, {{}}));
  EXPECT_EQ(files(), std::vector<std::string>{"out.pt.trace.json"});
  host.set_option("overwrite", "true");
  EXPECT_TRUE(run(host, {{}}));
}

TEST(KinetoArgs, RecordParamCommsSpellings) {
  EXPECT_EQ(scalar_type_name("float"), "Float");
  EXPECT_EQ(scalar_type_name("c10::BFloat16"), "BFloat16");
  EXPECT_EQ(scalar_type_name("Float"), "Float");
  EXPECT_EQ(ranks_list("0-3,5"), "[0, 1, 2, 3, 5]");
  EXPECT_EQ(ranks_list("0,1"), "[0, 1]");
  EXPECT_EQ(ranks_list("x"), "[]");
}

} // namespace
} // namespace prof::kineto
