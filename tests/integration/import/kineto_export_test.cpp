// `prof export --type kineto`: a report as PyTorch's Kineto trace. The
// trace has the shape HTA (Holistic Trace Analysis) reads, and `prof import`
// reads it back to the same events with the same arguments.
#include "tests/integration/import/import_test_support.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <prof/activity/json_reader.hpp>

#include <gtest/gtest.h>

#include <set>
#include <sstream>

namespace prof::import_test {
namespace {

using activity::JsonType;
using activity::JsonValue;
using e2e::run_process;
using e2e::RunResult;

using e2e::kProf;
const std::string kFixtures = std::string(PROF_IMPORT_FIXTURES) + "/fixtures/";

class KinetoExport : public ::testing::Test {
protected:
  std::string file(const std::string &name) const { return scratch_.file(name); }
  /// Imports `trace` to NAME.profrep and exports that to NAME.pt.trace.json.
  void import_and_export(const std::string &trace, const std::string &name,
                         std::vector<std::string> import_options = {}) {
    std::vector<std::string> argv = {kProf, "import", "-o", file(name + ".profrep")};
    argv.insert(argv.end(), import_options.begin(), import_options.end());
    argv.push_back(trace);
    const RunResult imported = run_process(argv);
    ASSERT_EQ(imported.exit_code, 0) << imported.describe();
    const RunResult exported =
        run_process({kProf, "export", "--type", "kineto", file(name + ".profrep")});
    ASSERT_EQ(exported.exit_code, 0) << exported.describe();
    EXPECT_NE(exported.out.find("Generated: " + file(name + ".pt.trace.json")), std::string::npos)
        << exported.out;
  }
  testing::ScratchDir scratch_{"prof-kineto", testing::ScratchDir::Keep::on_failure};
};

/// An event as the round trip compares it: everything but its ids and the
/// rows' OS numbers.
std::string described(const Event &e) {
  std::ostringstream out;
  out << int(e.type) << "/" << int(e.phase) << "/" << e.kind << " " << e.name << " [" << e.category
      << "] " << e.parent << " > " << e.track << " @" << e.ts << "+" << e.duration;
  if (e.type != PROF_EVENT_FLOW) out << " id " << e.id;
  for (const auto &[key, value] : e.args)
    out << " " << key << "=" << value;
  return out.str();
}

std::multiset<std::string> described(const ReadBack &r) {
  std::multiset<std::string> out;
  for (const Event &e : r.events)
    out.insert(described(e));
  return out;
}

TEST_F(KinetoExport, KinetoTraceComesBackTheSame) {
  import_and_export(kFixtures + "kineto_rank1.json", "first");
  const RunResult again =
      run_process({kProf, "import", "-o", file("second.profrep"), file("first.pt.trace.json")});
  ASSERT_EQ(again.exit_code, 0) << again.describe();
  EXPECT_EQ(again.err, "") << "the wall clock came back";
  const ReadBack first = read_back(file("first.profrep")),
                 second = read_back(file("second.profrep"));
  EXPECT_EQ(second.header.rank, "1");
  EXPECT_EQ(second.header.clock_anchor, first.header.clock_anchor);
  // The job's facts came back through distributedInfo; only the file differs.
  auto options = first.header.plugins.at(0).options;
  for (auto &[key, value] : options)
    if (key == "file") value = file("first.pt.trace.json");
  EXPECT_EQ(second.header.plugins.at(0).options, options);
  EXPECT_EQ(described(second), described(first));
  EXPECT_EQ(second.events.size(), first.events.size());
}

TEST_F(KinetoExport, LegacyTraceComesBackWithItsClockAndCollectives) {
  import_and_export(kFixtures + "legacy_r0.json", "first");
  const RunResult again =
      run_process({kProf, "import", "-o", file("second.profrep"), file("first.pt.trace.json")});
  ASSERT_EQ(again.exit_code, 0) << again.describe();
  // Still no wall clock: the exporter wrote no baseTimeNanoseconds.
  EXPECT_NE(again.err.find("has no wall-clock times"), std::string::npos) << again.err;
  const ReadBack first = read_back(file("first.profrep")),
                 second = read_back(file("second.profrep"));
  EXPECT_EQ(second.header.rank, "0");
  EXPECT_EQ(second.header.clock_anchor, first.header.clock_anchor);
  // The step's range comes back as Kineto's user range beside the operator
  // the legacy trace had; everything else as it was.
  std::multiset<std::string> expected = described(first);
  for (const Event *range : first.slices("ProfilerStep#1")) {
    Event annotation = *range;
    annotation.kind = PROF_CATEGORY_ANNOTATION;
    annotation.args.clear();
    expected.insert(described(annotation));
    Event step = first.slice("step");
    expected.insert(described(step));
  }
  EXPECT_EQ(described(second), expected);
}

TEST_F(KinetoExport, TheJsonHasTheShapeHtaReads) {
  import_and_export(kFixtures + "kineto_rank1.json", "trace");
  const std::string text = file_text(file("trace.pt.trace.json"));
  const JsonValue trace = activity::parse_json(text);
  ASSERT_EQ(trace.type, JsonType::Object);
  const JsonValue *events = trace.find("traceEvents");
  ASSERT_TRUE(events != nullptr && events->type == JsonType::Array);
  const JsonValue *info = trace.find("distributedInfo");
  ASSERT_TRUE(info != nullptr && info->type == JsonType::Object);
  ASSERT_TRUE(info->find("rank") && info->find("rank")->type == JsonType::Number);
  EXPECT_EQ(info->find("rank")->number, 1);
  EXPECT_EQ(info->find("world_size")->number, 2);
  EXPECT_EQ(info->find("backend")->string, "nccl");
  ASSERT_TRUE(trace.find("baseTimeNanoseconds"));
  EXPECT_EQ(std::to_string(static_cast<long long>(trace.find("baseTimeNanoseconds")->number)),
            "1700000000000000000");
  std::multiset<std::string> categories;
  int complete = 0;
  for (const JsonValue &e : events->array) {
    ASSERT_EQ(e.type, JsonType::Object);
    const JsonValue *ph = e.find("ph");
    ASSERT_TRUE(ph && ph->type == JsonType::String);
    if (ph->string != "X") continue;
    ++complete;
    for (const char *key : {"name", "cat"})
      EXPECT_TRUE(e.find(key) && e.find(key)->type == JsonType::String) << key;
    for (const char *key : {"ts", "dur", "pid", "tid"})
      EXPECT_TRUE(e.find(key) && e.find(key)->type == JsonType::Number) << key;
    if (const JsonValue *args = e.find("args")) {
      EXPECT_EQ(args->type, JsonType::Object);
    }
    categories.insert(e.find("cat")->string);
    if (e.find("name")->string == "aten::linear") {
      const JsonValue *args = e.find("args");
      ASSERT_NE(args, nullptr);
      EXPECT_EQ(args->find("Sequence number")->number, 5);
      EXPECT_EQ(args->find("Input Dims")->array.size(), 3u);
      EXPECT_EQ(args->find("Input type")->array.at(2).string, "float");
    }
    if (e.find("name")->string == "volta_sgemm_128x64_nn") {
      EXPECT_EQ(e.find("pid")->number, 0);
      EXPECT_EQ(e.find("tid")->number, 7);
      EXPECT_EQ(e.find("args")->find("correlation")->number, 77);
      EXPECT_EQ(e.find("args")->find("grid")->array.size(), 3u);
    }
  }
  EXPECT_EQ(complete, 19);
  EXPECT_EQ(categories, (std::multiset<std::string>{
                            "Trace", "user_annotation", "cpu_op", "cpu_op", "cpu_op",
                            "cuda_runtime", "kernel", "gpu_memcpy", "gpu_memset", "cuda_driver",
                            "python_function", "cpu_op", "cpu_op", "cpu_op", "cpu_op", "cpu_op",
                            "user_annotation", "gpu_user_annotation", "user_annotation"}));
}

} // namespace
} // namespace prof::import_test
