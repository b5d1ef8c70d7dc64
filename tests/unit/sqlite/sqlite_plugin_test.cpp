// The built libprof-sqlite.so: opened as the host opens it, and
// driven by the real prof binary, through `prof export --type sqlite` on a
// report written with ReportWriter and during a capture of prof-workload.
#include "sqlite_rows.hpp"

#include "core/report/report_writer.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/exporter_plugin_checks.hpp"
#include "tests/support/file_text.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace prof::sqlite {
namespace {

namespace fs = std::filesystem;
using prof::e2e::run_process;
using prof::testing::FakeExportHost;
using prof::testing::LoadedPlugin;
using testing::Rows;
using testing::SqliteRows;

using prof::e2e::kProf;
using prof::e2e::kWorkload;

class SqlitePluginTest : public ::testing::Test {
protected:
  /// A finished report: app > main with two API calls, GCU 0 > SIP 0 with
  /// the kernels they launched, a counter, a sample and a flow.
  fs::path write_report() const {
    using namespace prof::report;
    const fs::path path = dir_ / "run.profrep";
    Header header;
    header.session_name = "nightly";
    header.argv = {"./train"};
    header.command_display = "./train";
    header.pids = {4242, 4250};
    header.rank = "3";
    header.plugins = {{"gcu", "1.0.0", {{"activities", "*/general/operator"}}},
                      {"sqlite", "1.0.0", {}}};
    header.host_name = "node-07";
    header.clock_anchor = {1'700'000'000'000'000'000ull, 5'000ull};
    ReportWriter writer;
    writer.open(path.string(), header, false);
    const std::string_view strings[] = {"launch", "api", "conv", "kernel", "leaf", "root"};
    writer.add_strings(1, strings);
    const TrackRecord tracks[] = {
        {1, PROF_TRACK_PROCESS, 0, "train", 4242, 0, -1, "", PROF_CLOCK_SESSION},
        {2, PROF_TRACK_THREAD, 1, "main", 4242, 4243, -1, "", PROF_CLOCK_SESSION},
        {3, PROF_TRACK_DEVICE, 0, "GCU 0", 0, 0, 0, "", PROF_CLOCK_SESSION},
        {4, PROF_TRACK_ENGINE, 3, "SIP 0", 0, 0, 0, "", PROF_CLOCK_SESSION},
        {5, PROF_TRACK_COUNTER, 3, "power", 0, 0, -1, "W", PROF_CLOCK_SESSION}};
    writer.add_tracks(tracks);
    const StackRecord stacks[] = {{1, {5, 6}}};
    writer.add_stacks(stacks);
    std::vector<prof_event> events;
    for (uint64_t i = 0; i < 10; ++i) {
      const uint64_t ts = 10'000 + 1'000 * i;
      events.push_back({PROF_EVENT_SLICE, 0, 0, 2, 1, 2, ts, 100, i + 1, 0});
      events.push_back({PROF_EVENT_SLICE, 0, 0, 4, 3, 4, ts + 200, 300 + i, i + 1, 0});
    }
    events.push_back({PROF_EVENT_COUNTER, 0, 0, 5, 0, 0, 12'000, 0, 0, 42.5});
    events.push_back({PROF_EVENT_SAMPLE, 0, 0, 2, 0, 0, 13'000, 0, 1, 0});
    events.push_back({PROF_EVENT_FLOW, PROF_FLOW_BEGIN, 0, 2, 0, 0, 10'000, 0, 9, 0});
    writer.add_events(events.data(), events.size());
    writer.finish(Footer{30'000, 0, 0, 0, false, 0});
    return path;
  }

  prof::testing::ScratchDir scratch_;
  fs::path dir_{scratch_.path()};
};

TEST(SqlitePluginLoad, DescriptorAndOptions) {
  LoadedPlugin plugin("sqlite");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_plugin_descriptor &d = *plugin.descriptor();
  prof::testing::expect_common_fields(d, "sqlite", PROF_KIND_EXPORTER);
  EXPECT_EQ(d.option_count, 2u);
  prof::testing::expect_path_and_overwrite_options(d);
  prof::testing::expect_complete_exporter_vtable(*d.exporter);
}

TEST_F(SqlitePluginTest, ExportsThroughTheVtable) {
  LoadedPlugin plugin("sqlite");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_exporter_vtable &vt = *plugin.descriptor()->exporter;
  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  const fs::path out = dir_ / "vtable.sqlite";
  host.set_option("path", out.string());
  ASSERT_TRUE(prof::testing::export_through_vtable(
      vt, host, {host.slice(queue, "work", 10, 5), host.instant(queue, "mark", 12)}));
  SqliteRows db(out.string());
  EXPECT_EQ(db.query("SELECT ts, dur, end FROM slices"), (Rows{{"10", "5", "15"}}));
  EXPECT_EQ(db.value("SELECT COUNT(*) FROM instants"), "1");
  prof::testing::expect_begin_requires_path(vt, "sqlite");
}

TEST_F(SqlitePluginTest, ProfExportWritesTheDatabase) {
  const fs::path report = write_report();
  const fs::path out = dir_ / "run.sqlite"; // the report's name with .sqlite
  const auto result = run_process({kProf, "export", "--type", "sqlite", report.string()});
  ASSERT_EQ(result.exit_code, 0) << result.describe();
  // After the progress bar.
  EXPECT_TRUE(result.out.ends_with("\nGenerated: " + out.string() + "\n")) << result.out;
  {
    SqliteRows db(out.string());
    EXPECT_EQ(db.value("SELECT COUNT(*) FROM slices"), "20");
    EXPECT_EQ(db.query("SELECT s.value AS name, COUNT(*), SUM(dur), MIN(dur), MAX(dur) "
                       "FROM slices JOIN strings s ON s.id = slices.name_id "
                       "JOIN tracks t ON t.id = slices.track_id WHERE t.device_id IS NOT NULL "
                       "GROUP BY slices.name_id ORDER BY SUM(dur) DESC"),
              (Rows{{"conv", "10", "3045", "300", "309"}}));
    // API call and the kernel it launched, joined by correlation id.
    EXPECT_EQ(db.value("SELECT COUNT(*) FROM slices api JOIN slices k ON k.correlation_id = "
                       "api.correlation_id AND k.id <> api.id JOIN tracks t ON t.id = k.track_id "
                       "WHERE t.kind = 'engine' AND api.track_id = 2"),
              "10");
    EXPECT_EQ(db.query("SELECT pid, name FROM processes"), (Rows{{"4242", "train"}}));
    EXPECT_EQ(db.query("SELECT tid, pid, name FROM threads"), (Rows{{"4243", "4242", "main"}}));
    EXPECT_EQ(db.query("SELECT track_id, value FROM counters"), (Rows{{"5", "42.5"}}));
    EXPECT_EQ(db.query("SELECT id, unit FROM tracks ORDER BY id"),
              (Rows{{"1", "NULL"}, {"2", "NULL"}, {"3", "NULL"}, {"4", "NULL"}, {"5", "W"}}));
    EXPECT_EQ(db.query("SELECT s.value FROM samples JOIN stacks st ON st.id = samples.stack_id "
                       "JOIN strings s ON s.id = st.frame_name_id ORDER BY st.depth"),
              (Rows{{"leaf"}, {"root"}}));
    EXPECT_EQ(db.query("SELECT flow_id, phase FROM flows"), (Rows{{"9", "begin"}}));
    EXPECT_EQ(db.query("SELECT key, value FROM session WHERE key IN ('session_name', "
                       "'hostname', 'command', 'target_pid') ORDER BY key"),
              (Rows{{"command", "./train"},
                    {"hostname", "node-07"},
                    {"session_name", "nightly"},
                    {"target_pid", "4242"}}));
    EXPECT_EQ(db.query("SELECT key, value FROM session WHERE key IN ('pids', 'plugins', 'rank') "
                       "ORDER BY key"),
              (Rows{{"pids", "4242,4250"},
                    {"plugins", "gcu 1.0.0 activities=*/general/operator\nsqlite 1.0.0\n"},
                    {"rank", "3"}}));
  }

  // An existing output needs -f; the refusal is one line and changes nothing.
  const std::string before = prof::testing::file_text(out);
  const auto refused = run_process({kProf, "export", "--type", "sqlite", report.string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.describe();
  EXPECT_EQ(refused.err, "prof: sqlite: output file '" + out.string() +
                             "' already exists (use --force-overwrite)\n");
  EXPECT_EQ(prof::testing::file_text(out), before);
  const auto forced = run_process({kProf, "export", "--type", "sqlite", "-f", report.string()});
  EXPECT_EQ(forced.exit_code, 0) << forced.describe();
  EXPECT_EQ(SqliteRows(out.string()).value("SELECT COUNT(*) FROM slices"), "20");

  // -o into a folder that does not exist: refused before anything is written.
  const fs::path nowhere = dir_ / "missing" / "x.sqlite";
  const auto bad =
      run_process({kProf, "export", "--type", "sqlite", "-o", nowhere.string(), report.string()});
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_EQ(bad.err, "prof: sqlite: cannot write '" + nowhere.string() + "': folder '" +
                         nowhere.parent_path().string() + "' does not exist\n");
  EXPECT_FALSE(fs::exists(nowhere.parent_path()));
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(dir_))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"run.profrep", "run.sqlite"}));
}

// A capture with --plugin sqlite, and its report exported afterwards: both
// databases hold the same rows.
TEST_F(SqlitePluginTest, CaptureWritesTheSameRowsAsItsExport) {
  const fs::path live = dir_ / "live.sqlite";
  const auto capture =
      run_process({kProf, "--quiet", "--cpu-utilization", "-o", (dir_ / "r").string(), "--plugin",
                   "sqlite path=" + live.string(), kWorkload, "--seconds", "0.2"});
  ASSERT_EQ(capture.exit_code, 0) << capture.describe();
  const auto exported =
      run_process({kProf, "export", "--type", "sqlite", (dir_ / "r.profrep").string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.describe();

  const std::string counts =
      "SELECT (SELECT COUNT(*) FROM counters), (SELECT COUNT(*) FROM "
      "tracks), (SELECT COUNT(*) FROM strings), (SELECT ROUND(SUM(value), 3) "
      "FROM counters)";
  SqliteRows live_db(live.string());
  SqliteRows export_db((dir_ / "r.sqlite").string());
  const Rows rows = live_db.query(counts);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_GT(std::stoll(rows[0][0]), 0);
  EXPECT_EQ(export_db.query(counts), rows);
  // Both know when the capture happened on the wall clock, and the same.
  const std::string anchor =
      "SELECT value FROM session WHERE key IN ('realtime_anchor_ns', 'monotonic_anchor_ns', "
      "'session_start_ns') ORDER BY key";
  ASSERT_EQ(live_db.query(anchor).size(), 3u);
  EXPECT_EQ(export_db.query(anchor), live_db.query(anchor));
  EXPECT_GT(std::stoll(live_db.value("SELECT value FROM session WHERE key = 'realtime_anchor_ns'")),
            1'700'000'000'000'000'000LL);
  EXPECT_EQ(live_db.value("SELECT COUNT(*) FROM tracks WHERE kind = 'counter' AND unit = '%'") !=
                "0",
            true);
  EXPECT_EQ(
      live_db.value("SELECT value FROM session WHERE key = 'command'").find("prof-workload") !=
          std::string::npos,
      true);
}

} // namespace
} // namespace prof::sqlite
