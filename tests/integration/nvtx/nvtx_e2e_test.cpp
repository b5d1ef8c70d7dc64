// prof --trace nvtx on a program built with the NVTX v3 headers only: its
// ranges, marks and domain attributes reach the report on its thread tracks.
#include "core/report/report_reader.hpp"
#include "prof/event.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
const fs::path kBuildDir = PROF_BUILD_DIR;
const std::string kProf = (kBuildDir / "bin" / "prof").string();
const std::string kProgram = (kBuildDir / "tests" / "nvtx-annotated-program").string();

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
    if (auto set = reader.args().find(static_cast<uint32_t>(e.args)); set != reader.args().end())
      for (const prof_arg &arg : set->second.args)
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
