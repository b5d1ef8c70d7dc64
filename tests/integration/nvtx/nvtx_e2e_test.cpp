// prof --trace nvtx on a program built with the NVTX v3 headers only: its
// ranges, marks and domain attributes reach the report on its thread tracks.
#include "core/report/report_reader.hpp"
#include "prof/event.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/decoded_trace.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/trace_model.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
const std::string kProgram = test_program("nvtx-annotated-program");
const std::string kCProgram = test_program("nvtx-annotated-c-program");

struct Annotation {
  std::string name, category, thread;
  int tid = 0;
  uint64_t begin = 0, end = 0;
  uint16_t kind = 0;
  bool instant = false;
  std::map<std::string, std::string> args;
};

std::map<std::string, Annotation> read_annotations(const std::string &path) {
  std::map<std::string, Annotation> out;
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(path)) << path;
  for (const prof_event &e : reader.read_all_events()) {
    if (e.type != PROF_EVENT_SLICE && e.type != PROF_EVENT_INSTANT) continue;
    const report::TrackRecord *track = reader.track(e.track);
    if (track == nullptr) continue;
    Annotation a{std::string(reader.string(e.name)),
                 std::string(reader.string(e.category)),
                 track->name,
                 track->tid,
                 e.ts,
                 e.ts,
                 e.kind,
                 e.type == PROF_EVENT_INSTANT,
                 {}};
    if (!a.instant) a.end = e.ts + e.duration;
    if (auto set = reader.args().find(static_cast<uint32_t>(e.args)))
      for (const prof_arg &arg : *set)
        a.args[std::string(reader.string(arg.key))] =
            prof::arg_text(arg, [&reader](prof_string_id s) { return reader.string(s); });
    out[a.name] = a;
  }
  return out;
}

class NvtxE2E : public ::testing::Test {
protected:
  prof::testing::ScratchDir scratch_{"prof-nvtx", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(NvtxE2E, AnnotationsOfAnUnmodifiedProgramReachTheReport) {
  const fs::path report = dir_ / "r.profrep";
  auto r = run_process({kProf, "--trace", "nvtx", "--export-profile", report.string(), kProgram},
                       dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::map<int, int> worker_tids; // worker index -> tid
  static const std::regex line(R"(worker (\d) tid (\d+))");
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), line), end; it != end; ++it)
    worker_tids[std::stoi((*it)[1])] = std::stoi((*it)[2]);
  ASSERT_EQ(worker_tids.size(), 3u) << r.out;

  const auto found = read_annotations(report.string());
  for (int i = 0; i < 3; ++i) {
    const std::string outer_name = "outer " + std::to_string(i);
    const std::string inner_name = "inner " + std::to_string(i);
    ASSERT_TRUE(found.contains(outer_name) && found.contains(inner_name)) << i;
    const Annotation &outer = found.at(outer_name), &inner = found.at(inner_name);
    EXPECT_EQ(outer.tid, worker_tids[i]);
    EXPECT_EQ(inner.tid, worker_tids[i]);
    EXPECT_LE(outer.begin, inner.begin);
    EXPECT_GE(outer.end, inner.end);
    EXPECT_GE(inner.end - inner.begin, 2000000u); // the program sleeps 2 ms inside
    EXPECT_EQ(outer.kind, PROF_CATEGORY_ANNOTATION);
    EXPECT_EQ(outer.category, "nvtx");
  }
  EXPECT_EQ(found.at("inner 2").thread, "named-worker");

  ASSERT_TRUE(found.contains("begin") && found.contains("handed over"));
  const Annotation &mark = found.at("begin"), &handed = found.at("handed over");
  EXPECT_TRUE(mark.instant);
  EXPECT_EQ(mark.kind, PROF_CATEGORY_ANNOTATION);
  // Ended by worker 1, inside its outer range, on the main thread's track.
  EXPECT_EQ(handed.tid, mark.tid);
  EXPECT_NE(handed.tid, worker_tids[1]);
  EXPECT_GE(handed.end, found.at("inner 1").end);
  EXPECT_LE(handed.end, found.at("outer 1").end);

  ASSERT_TRUE(found.contains("step"));
  const Annotation &step = found.at("step");
  EXPECT_EQ(step.kind, PROF_CATEGORY_ANNOTATION);
  EXPECT_EQ(step.category, "nvtx/train");
  EXPECT_EQ(step.tid, mark.tid);
  EXPECT_EQ(step.args.at("domain"), "train");
  EXPECT_EQ(step.args.at("category"), "compute");
  EXPECT_EQ(step.args.at("color"), "#ff0000ff");
  EXPECT_EQ(step.args.at("payload"), "7");
  for (int i = 0; i < 3; ++i) {
    EXPECT_LE(step.begin, found.at("outer " + std::to_string(i)).begin);
    EXPECT_GE(step.end, found.at("outer " + std::to_string(i)).end);
  }
}

// The "step" range of domain "train" (category "compute", colour, payload 7)
// as each exporter writes it, converted from one report.
TEST_F(NvtxE2E, EveryExporterShowsTheRangesWithTheirArguments) {
  const fs::path report = dir_ / "r.profrep";
  auto r = run_process({kProf, "--trace", "nvtx", "--export-profile", report.string(), kProgram},
                       dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto exported = [&](const std::string &type, const fs::path &out) {
    auto e = run_process({kProf, "export", "--type", type, "-o", out.string(), report.string()},
                         dir_, std::chrono::seconds(120));
    EXPECT_EQ(e.exit_code, 0) << type << ": " << e.describe();
    return out;
  };

  // nsys's nvtx_sum: the range under its domain.
  auto stats = run_process({kProf, "stats", "--report", "nvtx", report.string()}, dir_);
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_TRUE(std::regex_search(stats.out, std::regex(R"(\btrain\s+step\n)"))) << stats.out;
  EXPECT_TRUE(std::regex_search(stats.out, std::regex(R"(\s1\s.*\s-\s+inner 0\n)"))) << stats.out;
  EXPECT_TRUE(std::regex_search(stats.out, std::regex(R"(Max\s+Thread\(%\)\s+Domain\s+Name\n)")))
      << stats.out;

  // Perfetto, decoded with protoc: the kind as a second category, the
  // arguments as debug annotations.
  const testing::TextNode trace = testing::decode_trace(exported("perfetto", dir_ / "t.pftrace"));
  const testing::TraceModel model(trace);
  const testing::TextNode *begin = nullptr;
  for (const testing::TextNode *p : trace.all("packet"))
    if (const testing::TextNode *e = p->first("track_event");
        e != nullptr && e->get("type") == "TYPE_SLICE_BEGIN" &&
        model.event_names.count(e->get("name_iid")) &&
        model.event_names.at(e->get("name_iid")) == "step")
      begin = e;
  ASSERT_NE(begin, nullptr);
  std::vector<std::string> categories;
  for (const testing::TextNode *iid : begin->all("category_iids"))
    categories.push_back(model.categories.at(iid->value));
  EXPECT_EQ(categories, (std::vector<std::string>{"nvtx/train", "annotation"}));
  std::map<std::string, std::string> annotations;
  for (const testing::TextNode *a : begin->all("debug_annotations"))
    for (const char *field : {"uint_value", "int_value", "double_value", "string_value"})
      if (a->has(field)) annotations[a->get("name")] = a->get(field);
  EXPECT_EQ(
      annotations,
      (std::map<std::string, std::string>{
          {"domain", "train"}, {"category", "compute"}, {"color", "#ff0000ff"}, {"payload", "7"}}));

  // SQLite: the slice's kind and its argument set.
  const fs::path db = exported("sqlite", dir_ / "t.sqlite");
  auto query = run_process(
      {"/usr/bin/sqlite3", db.string(),
       "SELECT sl.kind, k.value, COALESCE(v.value, a.int_value) FROM slices sl "
       "JOIN strings n ON n.id = sl.name_id JOIN args a ON a.arg_set_id = sl.arg_set_id "
       "JOIN strings k ON k.id = a.key_id LEFT JOIN strings v ON v.id = a.string_value_id "
       "WHERE n.value = 'step' ORDER BY a.idx"},
      dir_);
  ASSERT_EQ(query.exit_code, 0) << query.describe();
  EXPECT_EQ(query.out, "annotation|domain|train\nannotation|category|compute\n"
                       "annotation|color|#ff0000ff\nannotation|payload|7\n");

  // Chrome JSON: the arguments as "args".
  std::ifstream json_file(exported("chrome-json", dir_ / "t.json"));
  const std::string json((std::istreambuf_iterator<char>(json_file)),
                         std::istreambuf_iterator<char>());
  EXPECT_TRUE(std::regex_search(
      json,
      std::regex(
          R"re("name":"step"[^}]*"args":\{"domain":"train","category":"compute","color":"#ff0000ff","payload":7\})re")))
      << json.substr(0, 2000);
}

// The capture summary shows the ranges as `prof stats --report nvtx` does:
// by name and domain, with the share of all ranges and of the thread's time.
TEST_F(NvtxE2E, TheCaptureSummaryHasASectionOfTheNvtxRanges) {
  auto r = run_process({kProf, "--trace", "nvtx", kProgram}, dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string prefix = R"((?:==\d+== )?)";
  EXPECT_TRUE(
      std::regex_search(r.out, std::regex(prefix + R"(======== Annotation ranges \(nvtx\):\n)")))
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(prefix +
                                                  R"(Time\(%\)\s+Time\s+Calls\s+Avg\s+Min\s+Max\s+)"
                                                  R"(Thread\(%\)\s+Domain\s+Name\n)")))
      << r.out;
  // Each worker's inner range: once, on its own thread, a share of its time.
  const std::regex inner(R"(\s1\s.*\s(\d+\.\d\d)%\s+-\s+inner 1\n)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, inner)) << r.out;
  EXPECT_GT(std::stod(m[1]), 0.0);
  EXPECT_LE(std::stod(m[1]), 100.0);
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\btrain\s+step\n)"))) << r.out;
}

TEST_F(NvtxE2E, AProgramInCIsAnnotatedToo) {
  const fs::path report = dir_ / "r.profrep";
  auto r = run_process({kProf, "--trace", "nvtx", "--export-profile", report.string(), kCProgram},
                       dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto found = read_annotations(report.string());
  ASSERT_TRUE(found.contains("load") && found.contains("read file") && found.contains("loaded"))
      << r.describe();
  const Annotation &load = found.at("load"), &read = found.at("read file");
  EXPECT_EQ(load.category, "nvtx/io");
  EXPECT_EQ(load.args.at("domain"), "io");
  EXPECT_EQ(load.args.at("payload"), "-5");
  EXPECT_EQ(read.category, "nvtx");
  EXPECT_LE(load.begin, read.begin);
  EXPECT_GE(load.end, read.end);
  EXPECT_GE(read.end - read.begin, 1000000u);
  EXPECT_TRUE(found.at("loaded").instant);
  EXPECT_EQ(found.at("loaded").tid, load.tid);
}

TEST_F(NvtxE2E, AnNvtxRangeOpensTheCollectionWindow) {
  const fs::path report = dir_ / "r.profrep";
  auto r =
      run_process({kProf, "--trace", "nvtx", "-c", "annotation", "-p", "step@train",
                   "--capture-range-end", "stop", "--export-profile", report.string(), kProgram},
                  dir_, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto found = read_annotations(report.string());
  EXPECT_TRUE(found.contains("step"));
  EXPECT_TRUE(found.contains("inner 0"));
  EXPECT_FALSE(found.contains("begin")); // marked before the range began
}

} // namespace
} // namespace prof::e2e
