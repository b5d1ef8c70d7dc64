// The kineto plugin's importer (its reader, its passes, what it emits) and
// the host that writes the report, in the test's process: the hand-written
// fixtures of both forms, read back event by event with exact values, and
// the offsets of what a cut or damaged trace lacks.
#include "core/import/report_import.hpp"
#include "read/trace_emitter.hpp"
#include "read/trace_read_error.hpp"
#include "read/trace_reader.hpp"
#include "tests/integration/import/import_test_support.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tools/prof/reports/trace_file_names.hpp"

#include <gtest/gtest.h>

#include <set>

namespace prof::import_test {
namespace {

using kineto::ImportedTrace;

const std::string kFixtures = std::string(PROF_IMPORT_FIXTURES) + "/fixtures/";
constexpr uint64_t kStart = kineto::kImportStartNs;

/// The kineto plugin as prof import finds it.
const core::PluginInfo &kineto_importer() {
  static const core::PluginRegistry registry = [] {
    core::PluginRegistry r;
    r.scan({std::filesystem::path(PROF_BUILD_DIR) / "lib" / "prof" / "plugins"});
    return r;
  }();
  const core::PluginInfo *plugin = registry.find("kineto");
  if (plugin == nullptr || plugin->importer == nullptr) std::abort();
  return *plugin;
}

/// The report `text` imports to (rank as the command would take it from
/// the trace, or `rank`).
ReadBack import_text(const std::string &text, std::optional<int64_t> rank = std::nullopt) {
  testing::ScratchDir dir("prof-import");
  core::import_file(kineto_importer(), {"trace.json", text, rank, std::nullopt},
                    dir.file("out.profrep"));
  return read_back(dir.file("out.profrep"));
}

/// The message and offset `text` fails with ("" when it reads).
std::pair<std::string, size_t> failure_of(const std::string &text) {
  try {
    ImportedTrace trace;
    kineto::read_pytorch_trace(text, trace);
  } catch (const kineto::TraceReadError &e) {
    return {e.what(), e.offset};
  }
  return {"", 0};
}

TEST(KinetoTrace, HeaderTracksAndClock) {
  const ReadBack r = import_text(file_text(kFixtures + "kineto_rank1.json"));
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(r.header.rank, "1");
  EXPECT_EQ(r.header.pids, std::vector<int32_t>{4242});
  // baseTimeNanoseconds + the first event's ts (0) is the report's kStart.
  EXPECT_EQ(r.header.clock_anchor.realtime_ns, 1'700'000'000'000'000'000ull);
  EXPECT_EQ(r.header.clock_anchor.monotonic_ns, kStart);
  ASSERT_EQ(r.header.plugins.size(), 1u);
  EXPECT_EQ(r.header.plugins[0].name, "kineto");
  EXPECT_EQ(r.header.plugins[0].options.front(),
            (std::pair<std::string, std::string>{"format", "kineto"}));
  std::set<std::string> names;
  for (const auto &t : r.tracks)
    names.insert(std::to_string(t.kind) + ":" + t.name + ":" + std::to_string(t.pid) + ":" +
                 std::to_string(t.tid) + ":" + std::to_string(t.index));
  EXPECT_EQ(names,
            (std::set<std::string>{
                "1:python3 (rank 1):4242:0:-1", "2:thread 4243 (python3):4242:4243:-1",
                "2:thread 4250 (pt_autograd_0):4242:4250:-1", "2:PyTorch Profiler:4242:0:-1",
                "3:GPU 0:0:0:0", "5:Stream 7:0:0:7", "5:Stream 20:0:0:20", "10:Memory:0:0:-1"}));
}

TEST(KinetoTrace, OperatorsHavePassSelfShapesAndTypes) {
  const ReadBack r = import_text(file_text(kFixtures + "kineto_rank1.json"));
  const Event &linear = r.slice("aten::linear");
  EXPECT_EQ(linear.kind, PROF_CATEGORY_OPERATOR);
  EXPECT_EQ(linear.category, "torch");
  EXPECT_EQ(linear.track, "thread 4243 (python3)");
  EXPECT_EQ(linear.parent, "python3 (rank 1)");
  EXPECT_EQ(linear.ts, kStart + 10'250);
  EXPECT_EQ(linear.duration, 100'000u);
  EXPECT_EQ(linear.args, (std::map<std::string, std::string>{
                             {"pass", "forward"},
                             {"self", "22000"}, // 100 us less aten::t (8) and aten::addmm (70)
                             {"sequence number", "5"},
                             {"input shapes", "[[2, 8], [16, 8], [16]]"},
                             {"input types", "[float, float, float]"}}));
  EXPECT_EQ(r.slice("aten::addmm").arg("input types"), "[float, float, float, Scalar, Scalar]");
  EXPECT_EQ(r.slice("aten::addmm").arg("input shapes"), "[[16], [2, 8], [8, 16], [], []]");
  EXPECT_EQ(r.slice("aten::addmm").arg("self"), "70000");
  const Event &evaluate = r.slice("autograd::engine::evaluate_function: AddmmBackward0");
  EXPECT_EQ(evaluate.arg("pass"), "backward");
  EXPECT_EQ(evaluate.arg("self"), "11000");
  const Event &node = r.slice("AddmmBackward0");
  EXPECT_EQ(node.args, (std::map<std::string, std::string>{{"pass", "backward"},
                                                           {"self", "49000"},
                                                           {"sequence number", "5"},
                                                           {"forward thread", "4243"}}));
  // Called inside a backward node on its thread: backward too.
  EXPECT_EQ(r.slice("aten::mm").arg("pass"), "backward");
  EXPECT_EQ(r.slice("aten::mm").arg("self"), "40000");
  EXPECT_EQ(r.slice("c10d::allreduce_").arg("self"), "60000");
  EXPECT_EQ(r.slice("record_param_comms").kind, PROF_CATEGORY_OPERATOR);
}

TEST(KinetoTrace, EachCategoryHasItsKind) {
  const ReadBack r = import_text(file_text(kFixtures + "kineto_rank1.json"));
  const Event &step_range = r.slice("ProfilerStep#3");
  EXPECT_EQ(step_range.kind, PROF_CATEGORY_ANNOTATION);
  EXPECT_EQ(step_range.category, "torch");
  const Event &python = r.slice("train.py(12): step");
  EXPECT_EQ(python.kind, PROF_CATEGORY_ANNOTATION);
  EXPECT_EQ(python.category, "python");
  const Event &launch = r.slice("cudaLaunchKernel");
  EXPECT_EQ(launch.kind, PROF_CATEGORY_RUNTIME_API);
  EXPECT_EQ(launch.id, 77u);
  EXPECT_EQ(r.slice("cuLaunchKernel").kind, PROF_CATEGORY_DRIVER_API);
  const Event &kernel = r.slice("volta_sgemm_128x64_nn");
  EXPECT_EQ(kernel.kind, PROF_CATEGORY_KERNEL);
  EXPECT_EQ(kernel.track, "Stream 7");
  EXPECT_EQ(kernel.parent, "GPU 0");
  EXPECT_EQ(kernel.id, 77u);
  EXPECT_EQ(kernel.ts, kStart + 60'000);
  EXPECT_EQ(kernel.args, (std::map<std::string, std::string>{{"grid", "1x2x3"},
                                                             {"block", "128x1x1"},
                                                             {"registers_per_thread", "126"},
                                                             {"stream", "7"},
                                                             {"device", "0"},
                                                             {"context", "1"}}));
  const Event &copy = r.slice("Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(copy.kind, PROF_CATEGORY_MEMCPY_HTOD);
  EXPECT_EQ(copy.arg("bytes"), "4096");
  const Event &set = r.slice("Memset (Device)");
  EXPECT_EQ(set.kind, PROF_CATEGORY_MEMSET);
  EXPECT_EQ(set.arg("bytes"), "512");
  const Event &trace_span = r.slice("PyTorch Profiler (0)");
  EXPECT_EQ(trace_span.kind, PROF_CATEGORY_OTHER);
  EXPECT_EQ(trace_span.category, "Trace");
  // The device's side of a collective stays a range on its stream.
  const auto device_side = r.slices("nccl:all_reduce");
  ASSERT_EQ(device_side.size(), 3u);
  EXPECT_EQ(device_side[1]->kind, PROF_CATEGORY_ANNOTATION);
  EXPECT_EQ(device_side[1]->track, "Stream 20");
}

TEST(KinetoTrace, MemoryInstantsHaveEventHNames) {
  const ReadBack r = import_text(file_text(kFixtures + "kineto_rank1.json"));
  std::vector<const Event *> memory;
  for (const Event *e : r.of_type(PROF_EVENT_INSTANT))
    if (e->kind == PROF_CATEGORY_MEMORY) memory.push_back(e);
  ASSERT_EQ(memory.size(), 2u);
  EXPECT_EQ(memory[0]->track, "Memory");
  EXPECT_EQ(memory[0]->parent, "GPU 0");
  EXPECT_EQ(memory[0]->ts, kStart + 31'000);
  EXPECT_EQ(memory[0]->args, (std::map<std::string, std::string>{{"operation", "alloc"},
                                                                 {"address", "139637976727552"},
                                                                 {"bytes", "4096"},
                                                                 {"memory", "device"},
                                                                 {"total allocated", "4096"},
                                                                 {"total reserved", "2097152"}}));
  EXPECT_EQ(memory[1]->arg("operation"), "free");
  EXPECT_EQ(memory[1]->arg("bytes"), "4096");
  EXPECT_EQ(memory[1]->arg("total allocated"), "0");
}

TEST(KinetoTrace, FlowsPairAc2gFwdbwdAndC10d) {
  const ReadBack r = import_text(file_text(kFixtures + "kineto_rank1.json"));
  std::set<std::string> flows;
  for (const Event *f : r.of_type(PROF_EVENT_FLOW))
    flows.insert(std::to_string(f->id) + (f->phase == PROF_FLOW_BEGIN ? " begin " : " end ") +
                 f->track + " @" + std::to_string(f->ts - kStart));
  EXPECT_EQ(flows,
            (std::set<std::string>{
                "1 begin thread 4243 (python3) @40000", "1 end Stream 7 @60000",
                "2 begin thread 4243 (python3) @12000", "2 end thread 4250 (pt_autograd_0) @301000",
                "3 begin thread 4243 (python3) @490000", "3 end thread 4243 (python3) @510000"}));
}

TEST(KinetoTrace, StepsAndCollectivesTakeRecordParamComms) {
  const ReadBack r = import_text(file_text(kFixtures + "kineto_rank1.json"));
  const Event &step = r.slice("step");
  EXPECT_EQ(step.kind, PROF_CATEGORY_ANNOTATION);
  EXPECT_EQ(step.category, "torch/step");
  EXPECT_EQ(step.args, (std::map<std::string, std::string>{{"step", "3"}}));
  EXPECT_EQ(step.ts, kStart + 1'000);
  EXPECT_EQ(step.duration, 999'000u);

  std::vector<const Event *> calls;
  for (const Event *e : r.slices("nccl:all_reduce"))
    if (e->kind == PROF_CATEGORY_COMMUNICATION) calls.push_back(e);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0]->category, "torch");
  EXPECT_EQ(calls[0]->args, (std::map<std::string, std::string>{{"communicator", "nccl:0"},
                                                                {"sequence", "7"},
                                                                {"queued", "20000"},
                                                                {"operation", "all_reduce"},
                                                                {"bytes", "4096"},
                                                                {"elements", "1024"},
                                                                {"dtype", "float"},
                                                                {"backend", "nccl"},
                                                                {"group size", "2"},
                                                                {"rank", "1"},
                                                                {"group ranks", "0,1"}}));
  // No record_param_comms: the default group, the next sequence.
  EXPECT_EQ(calls[1]->args, (std::map<std::string, std::string>{{"communicator", "nccl:0"},
                                                                {"sequence", "8"},
                                                                {"operation", "all_reduce"},
                                                                {"backend", "nccl"},
                                                                {"group size", "2"},
                                                                {"rank", "1"},
                                                                {"group ranks", "0,1"}}));
  const Event &c10d = r.slice("c10d::allreduce_");
  EXPECT_EQ(c10d.kind, PROF_CATEGORY_OPERATOR);
  EXPECT_EQ(c10d.arg("communicator"), "nccl:0");
  EXPECT_EQ(c10d.arg("sequence"), "7");
}

TEST(KinetoTrace, TimesKeepTheirNanosecondsPastADoublesPrecision) {
  // 1700000000123456.789 us is not a double; its ns must survive.
  const ReadBack r = import_text(R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1700000000123456.789, "dur": 1.5},
    {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 1, "tid": 1, "ts": 1700000000123458.001, "dur": 0.001}]})");
  EXPECT_EQ(r.header.clock_anchor.realtime_ns, 1'700'000'000'123'456'789ull);
  EXPECT_EQ(r.slice("a").ts, kStart);
  EXPECT_EQ(r.slice("a").duration, 1'500u);
  EXPECT_EQ(r.slice("b").ts, kStart + 1'212);
  EXPECT_EQ(r.slice("b").duration, 1u);
}

TEST(LegacyTrace, EveryEventIsAnOperatorWithCollectivesAndSteps) {
  const ReadBack r = import_text(file_text(kFixtures + "legacy_r0.json"), 0);
  EXPECT_EQ(r.header.rank, "0");
  EXPECT_EQ(r.header.plugins.at(0).options.at(0).second, "legacy");
  // No wall clock: time 0 is the profiler's start, at the fixed anchor.
  EXPECT_EQ(r.header.clock_anchor.realtime_ns, kStart);
  EXPECT_EQ(r.header.clock_anchor.monotonic_ns, kStart);
  const Event &step_range = r.slice("ProfilerStep#1");
  EXPECT_EQ(step_range.kind, PROF_CATEGORY_OPERATOR);
  EXPECT_EQ(step_range.ts, kStart + 100'000);
  EXPECT_EQ(step_range.track, "thread 1");
  EXPECT_EQ(step_range.parent, "python3 (rank 0)");
  // Its operators: linear 190, two c10d 100 + 10, the evaluation 100.
  EXPECT_EQ(step_range.arg("self"), "400000");
  EXPECT_EQ(step_range.arg("pass"), "forward");
  EXPECT_EQ(r.slice("aten::linear").arg("self"), "30000");
  EXPECT_EQ(r.slice("MmBackward0").arg("pass"), "backward");
  EXPECT_EQ(r.slice("aten::mm").arg("pass"), "backward");
  EXPECT_EQ(r.slice("aten::addmm").arg("pass"), "forward");
  EXPECT_EQ(r.slice("step").arg("step"), "1");
  EXPECT_EQ(r.slice("step").duration, 800'000u);

  const auto gloo = r.slices("gloo:all_reduce");
  ASSERT_EQ(gloo.size(), 2u);
  EXPECT_EQ(gloo[0]->track, "thread 2");
  EXPECT_EQ(gloo[0]->kind, PROF_CATEGORY_COMMUNICATION);
  EXPECT_EQ(gloo[0]->args, (std::map<std::string, std::string>{{"communicator", "gloo:0"},
                                                               {"sequence", "1"},
                                                               {"queued", "50000"},
                                                               {"operation", "all_reduce"},
                                                               {"backend", "gloo"},
                                                               {"rank", "0"}}));
  EXPECT_EQ(gloo[1]->arg("sequence"), "2");
  EXPECT_EQ(gloo[1]->arg("queued"), "20000");
  EXPECT_EQ(gloo[1]->duration, 70'500u);
  const auto c10d = r.slices("c10d::allreduce_");
  ASSERT_EQ(c10d.size(), 2u);
  EXPECT_EQ(c10d[0]->kind, PROF_CATEGORY_OPERATOR);
  EXPECT_EQ(c10d[0]->arg("sequence"), "1");
  EXPECT_EQ(c10d[1]->arg("sequence"), "2");
  EXPECT_EQ(c10d[1]->arg("communicator"), "gloo:0");
  EXPECT_EQ(r.of_type(PROF_EVENT_FLOW).size(), 4u);
}

TEST(LegacyTrace, C10dOperatorsAreTheCollectivesWithoutBackendEvents) {
  const ReadBack r = import_text(R"([
    {"name": "c10d::allreduce_", "ph": "X", "ts": 10, "dur": 5, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "c10d::broadcast_", "ph": "X", "ts": 20, "dur": 5, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "c10d::allreduce_", "ph": "X", "ts": 30, "dur": 5, "tid": 1, "pid": "CPU functions", "args": {}}])");
  const auto calls = r.slices("c10d::allreduce_");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0]->kind, PROF_CATEGORY_COMMUNICATION);
  EXPECT_EQ(calls[0]->args, (std::map<std::string, std::string>{{"communicator", "c10d:0"},
                                                                {"sequence", "1"},
                                                                {"operation", "all_reduce"},
                                                                {"backend", "c10d"}}));
  EXPECT_EQ(calls[1]->arg("sequence"), "3");
  EXPECT_EQ(r.slice("c10d::broadcast_").arg("operation"), "broadcast");
}

TEST(TraceErrors, CutTracesSayWhatIsMissingAndWhere) {
  const std::string text = file_text(kFixtures + "kineto_rank1.json");
  for (const size_t cut : {size_t{1}, size_t{2}, size_t{57}, size_t{400}, text.size() / 2,
                           text.size() - 30, text.size() - 3}) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    const auto [message, offset] = failure_of(text.substr(0, cut));
    EXPECT_EQ(message.rfind("expected ", 0), 0u) << message;
    EXPECT_NE(message.find(" at offset " + std::to_string(offset)), std::string::npos) << message;
    EXPECT_LE(offset, cut);
    EXPECT_NE(message.find("end of input"), std::string::npos) << message;
  }
  EXPECT_EQ(failure_of("").first,
            "expected a PyTorch trace (a JSON object with \"traceEvents\", or an array of "
            "events), found an empty file at offset 0");
  EXPECT_EQ(failure_of(R"([{"name": "a", "ph": "X", "ts": 1)").first,
            "expected ',' or '}' after an object member, found end of input at offset 33");
  EXPECT_EQ(failure_of("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1}").first,
            "expected ',' or ']' after an event, found end of input at offset 34");
}

TEST(TraceErrors, GarbageAndWrongShapesAreRefused) {
  EXPECT_EQ(failure_of("hello").first,
            "expected a PyTorch trace (a JSON object with \"traceEvents\", or an array of "
            "events), found 'h' at offset 0");
  EXPECT_EQ(failure_of(std::string("\x00\x01", 2)).first,
            "expected a PyTorch trace (a JSON object with \"traceEvents\", or an array of "
            "events), found byte 0x00 at offset 0");
  EXPECT_EQ(failure_of(R"({"schemaVersion": 1})").first,
            "expected \"traceEvents\" in the trace object at offset 0");
  EXPECT_EQ(failure_of(R"({"traceEvents": [1]})").first,
            "expected an event object, found a number at offset 17");
  EXPECT_EQ(failure_of(R"({"traceEvents": [{"ph": "X", "name": "a"}]})").first,
            "expected \"ts\" in the event at offset 17");
  EXPECT_EQ(failure_of(R"({"traceEvents": [{"ph": "X", "name": "a", "ts": "7"}]})").first,
            "expected a number for \"ts\" at offset 48");
  EXPECT_EQ(failure_of(R"({"traceEvents": [{"name": "a"}]})").first,
            "expected a one-letter \"ph\" in the event at offset 17");
  EXPECT_EQ(failure_of(R"({"traceEvents": []} x)").first,
            "expected the end of the trace after its JSON value, found 'x' at offset 20");
  EXPECT_EQ(failure_of(R"({"traceEvents": [], "distributedInfo": {"rank": "one"}})").first,
            "expected a number for \"rank\" at offset 48");
}

TEST(TraceFileNames, ReportNamesAndRanks) {
  EXPECT_EQ(tool::report_name_for_trace("traces/r3.json.gz"), "r3.profrep");
  EXPECT_EQ(tool::report_name_for_trace("host_12.1700.pt.trace.json"),
            "host_12.1700.pt.trace.profrep");
  EXPECT_EQ(tool::report_name_for_trace("legacy.json"), "legacy.profrep");
  EXPECT_EQ(tool::report_name_for_trace("run.perfetto-trace"), "run.profrep");
  EXPECT_EQ(tool::report_name_for_trace("run.pftrace.gz"), "run.profrep");
  EXPECT_EQ(tool::rank_in_file_name("rank3.pftrace"), 3);
  EXPECT_EQ(tool::rank_in_file_name("r3.json"), 3);
  EXPECT_EQ(tool::rank_in_file_name("dir/rank12.json.gz"), 12);
  EXPECT_EQ(tool::rank_in_file_name("trace_rank_5.json"), 5);
  EXPECT_EQ(tool::rank_in_file_name("trace_3.json"), 3);
  EXPECT_EQ(tool::rank_in_file_name("worker-r7.pt.trace.json"), 7);
  EXPECT_EQ(tool::rank_in_file_name("trace.json"), std::nullopt);
  EXPECT_EQ(tool::rank_in_file_name("host_1234.1700000000000.pt.trace.json"), std::nullopt);
}

} // namespace
} // namespace prof::import_test
