// A source that emits on tracks, strings and stacks it never declared: prof
// refuses those events, counts them with the drops, names the plugin, and
// keeps the rest of the capture.
#include "core/report/report_reader.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(BrokenPlugin, EventsOnWhatItNeverDeclaredAreRefusedAndCounted) {
  prof::testing::ScratchDir scratch{"prof-faults", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path report = fs::path(scratch.path()) / "r.profrep";
  const RunResult r =
      run_process({kProf, "--plugin-path", PROF_FAULT_PLUGIN_DIR, "--plugin", "undeclared",
                   "--export-profile", report.string(), kWorkload, "--seconds", "0.05"},
                  scratch.path(), std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("undeclared: 3 events named a track, string or stack the plugin "
                               "never declared; they were refused, and the report counts them"))
      << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string()));
  size_t good = 0;
  for (const prof_event &e : reader.read_all_events()) {
    EXPECT_NE(e.track, 4242u);
    EXPECT_NE(reader.track(e.track), nullptr) << "an event on an unknown track";
    if (e.type == PROF_EVENT_SLICE && reader.string(e.name) == "good slice") ++good;
  }
  EXPECT_EQ(good, 1u);
  EXPECT_EQ(reader.dropped(PROF_DROP_INVALID_EVENT), 3u);
  EXPECT_EQ(reader.total_dropped(), 0u) << "no ring was full";
  EXPECT_THAT(r.out + r.err, ::testing::Not(HasSubstr("rings were full")));
  // prof stats on the report says so too, beside the tables.
  const RunResult stats = run_process({kProf, "stats", report.string(), "--format", "csv"},
                                      scratch.path(), std::chrono::seconds(60));
  EXPECT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_THAT(stats.err, HasSubstr("this capture lost events: 3 events were refused: they "
                                   "named a track, string or stack their source never declared"));
  EXPECT_THAT(stats.out, HasSubstr("good slice"));
}

} // namespace
} // namespace prof::e2e
