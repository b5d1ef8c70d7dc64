// The sqlite exporter driven through a fake export host: every table's rows
// read back with the sqlite3 C API, the indexes, the device summary query of
// docs/sqlite-schema.md (and every other query there), and the file
// handling: refusal, overwrite, failures that must leave nothing behind.
#include "sqlite_exporter.hpp"
#include "sqlite_rows.hpp"

#include "tests/support/exporter_test.hpp"
#include "tests/support/file_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace prof::sqlite {
namespace {

namespace fs = std::filesystem;
using prof::testing::FakeExportHost;
using testing::Rows;
using testing::SqliteRows;

class SqliteExporterTest : public prof::testing::ExporterTest<SqliteExporter> {
protected:
  SqliteExporterTest() : ExporterTest("out.sqlite") {}
};

/// app (pid 100) > main, worker; GCU 0 > Cluster 1 > SIP 3; counters rss
/// (under app) and power (under GCU 0); one stack [leaf, mid, main].
struct SampleCapture {
  explicit SampleCapture(FakeExportHost &host) {
    host.set_target(100, "app --train");
    process = host.add_track(PROF_TRACK_PROCESS, "app", 0, 100);
    main = host.add_track(PROF_TRACK_THREAD, "main", process, 100, 100);
    worker = host.add_track(PROF_TRACK_THREAD, "worker", process, 100, 101);
    device = host.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
    cluster = host.add_track(PROF_TRACK_CLUSTER, "Cluster 1", device, 0, 0, 1);
    sip = host.add_track(PROF_TRACK_ENGINE, "SIP 3", cluster, 0, 0, 3);
    rss = host.add_track(PROF_TRACK_COUNTER, "rss", process, 0, 0, -1, "bytes");
    power = host.add_track(PROF_TRACK_COUNTER, "power", device, 0, 0, -1, "W");
    host.add_track(PROF_TRACK_CUSTOM, "unused track");
    host.intern("unused string");
    const prof_stack_id stack = host.add_stack({"leaf", "mid", "main"});

    prof_event power_for_op = host.counter(power, 1500, 80);
    power_for_op.id = 7;
    prof_event osrt_stack = host.sample(worker, 1700, stack);
    osrt_stack.category = host.intern("osrt");
    batches = {
        {host.slice(main, "launch", 1000, 200, "api", 7),
         host.slice(sip, "conv", 1100, 500, "kernel", 7), host.instant(worker, "mark", 1300),
         host.counter(rss, 1400, 4096.5), power_for_op},
        {host.sample(main, 1600, stack), osrt_stack, host.flow(main, 1000, 0x1234, PROF_FLOW_BEGIN),
         host.flow(sip, 1100, 0x1234, PROF_FLOW_END), host.flow(main, 1050, 0x1234, PROF_FLOW_STEP),
         host.slice(main, "", 2000, 10)},
    };
  }
  prof_track_id process, main, worker, device, cluster, sip, rss, power;
  std::vector<std::vector<prof_event>> batches;
};

TEST_F(SqliteExporterTest, WritesEveryTable) {
  FakeExportHost host;
  SampleCapture capture(host);
  ASSERT_TRUE(run(host, capture.batches)) << ::testing::PrintToString(host.errors());
  EXPECT_EQ(files(), std::vector<std::string>{"out.sqlite"});
  SqliteRows db(path_);

  EXPECT_EQ(db.query("SELECT t.id, t.parent_id, t.kind, s.value, t.pid, t.tid, t.idx, t.unit, "
                     "t.device_id FROM tracks t JOIN strings s ON s.id = t.name_id ORDER BY t.id"),
            (Rows{{"1", "NULL", "process", "app", "100", "NULL", "NULL", "NULL", "NULL"},
                  {"2", "1", "thread", "main", "100", "100", "NULL", "NULL", "NULL"},
                  {"3", "1", "thread", "worker", "100", "101", "NULL", "NULL", "NULL"},
                  {"4", "NULL", "device", "GCU 0", "NULL", "NULL", "0", "NULL", "4"},
                  {"5", "4", "cluster", "Cluster 1", "NULL", "NULL", "1", "NULL", "4"},
                  {"6", "5", "engine", "SIP 3", "NULL", "NULL", "3", "NULL", "4"},
                  {"7", "1", "counter", "rss", "NULL", "NULL", "NULL", "bytes", "NULL"},
                  {"8", "4", "counter", "power", "NULL", "NULL", "NULL", "W", "4"}}));
  EXPECT_EQ(db.query("SELECT pid, name FROM processes"), (Rows{{"100", "app"}}));
  EXPECT_EQ(db.query("SELECT tid, pid, name FROM threads ORDER BY tid"),
            (Rows{{"100", "100", "main"}, {"101", "100", "worker"}}));
  EXPECT_EQ(db.query("SELECT sl.id, sl.track_id, sl.ts, sl.dur, sl.end, n.value, c.value, "
                     "sl.correlation_id FROM slices sl JOIN strings n ON n.id = sl.name_id "
                     "LEFT JOIN strings c ON c.id = sl.category_id ORDER BY sl.id"),
            (Rows{{"1", "2", "1000", "200", "1200", "launch", "api", "7"},
                  {"2", "6", "1100", "500", "1600", "conv", "kernel", "7"},
                  {"3", "2", "2000", "10", "2010", "", "NULL", "NULL"}}));
  EXPECT_EQ(db.query("SELECT i.track_id, i.ts, n.value, i.category_id FROM instants i "
                     "JOIN strings n ON n.id = i.name_id"),
            (Rows{{"3", "1300", "mark", "NULL"}}));
  EXPECT_EQ(db.query("SELECT track_id, ts, value, correlation_id FROM counters ORDER BY ts"),
            (Rows{{"7", "1400", "4096.5", "NULL"}, {"8", "1500", "80.0", "7"}}));
  EXPECT_EQ(db.query("SELECT sa.track_id, sa.ts, sa.stack_id, c.value FROM samples sa "
                     "LEFT JOIN strings c ON c.id = sa.category_id ORDER BY sa.ts"),
            (Rows{{"2", "1600", "1", "NULL"}, {"3", "1700", "1", "osrt"}}));
  EXPECT_EQ(db.query("SELECT st.id, st.depth, s.value FROM stacks st "
                     "JOIN strings s ON s.id = st.frame_name_id ORDER BY st.id, st.depth"),
            (Rows{{"1", "0", "leaf"}, {"1", "1", "mid"}, {"1", "2", "main"}}));
  EXPECT_EQ(db.query("SELECT flow_id, phase, track_id, ts FROM flows ORDER BY ts"),
            (Rows{{"4660", "begin", "2", "1000"},
                  {"4660", "step", "2", "1050"},
                  {"4660", "end", "6", "1100"}}));
  // Only the strings used, each once; a frame and a track named "main" share a row.
  EXPECT_EQ(db.query("SELECT value FROM strings ORDER BY value"), (Rows{{""},
                                                                        {"Cluster 1"},
                                                                        {"GCU 0"},
                                                                        {"SIP 3"},
                                                                        {"api"},
                                                                        {"app"},
                                                                        {"conv"},
                                                                        {"kernel"},
                                                                        {"launch"},
                                                                        {"leaf"},
                                                                        {"main"},
                                                                        {"mark"},
                                                                        {"mid"},
                                                                        {"osrt"},
                                                                        {"power"},
                                                                        {"rss"},
                                                                        {"worker"}}));
}

TEST_F(SqliteExporterTest, SessionTableDescribesTheCapture) {
  FakeExportHost host;
  SampleCapture capture(host);
  host.set_option("overwrite", "false");
  ASSERT_TRUE(run(host, capture.batches)) << ::testing::PrintToString(host.errors());
  SqliteRows db(path_);
  EXPECT_EQ(db.query("SELECT key, value FROM session ORDER BY key"),
            (Rows{{"clock", "CLOCK_MONOTONIC"},
                  {"command", "app --train"},
                  {"dropped_events", "0"},
                  {"events", "11"},
                  {"exporter", std::string("sqlite ") + kPluginVersion},
                  {"first_event_ns", "1000"},
                  {"hostname", "host"},
                  {"last_event_end_ns", "2010"},
                  {"plugin.sqlite.overwrite", "false"},
                  {"plugin.sqlite.path", path_},
                  {"schema_version", "2"},
                  {"session_name", "test"},
                  {"skipped_events", "0"},
                  {"target_pid", "100"},
                  {"time_unit", "ns"}}));
  EXPECT_EQ(db.value("SELECT typeof(value) FROM session WHERE key = 'events'"), "integer");
}

TEST_F(SqliteExporterTest, CreatesTheIndexesTheQueriesUse) {
  FakeExportHost host;
  SampleCapture capture(host);
  ASSERT_TRUE(run(host, capture.batches));
  SqliteRows db(path_);
  EXPECT_EQ(db.query("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND "
                     "name NOT LIKE 'sqlite_autoindex%' ORDER BY name"),
            (Rows{{"args_key", "args"},
                  {"counters_track_ts", "counters"},
                  {"flows_flow", "flows"},
                  {"slices_correlation", "slices"},
                  {"slices_kind", "slices"},
                  {"slices_name", "slices"},
                  {"slices_track_ts", "slices"}}));
  EXPECT_EQ(db.query("SELECT name FROM pragma_index_info('slices_track_ts') ORDER BY seqno"),
            (Rows{{"track_id"}, {"ts"}}));
  // The planner takes them.
  const Rows plan = db.query("EXPLAIN QUERY PLAN SELECT ts FROM slices WHERE track_id = 2 "
                             "ORDER BY ts");
  ASSERT_FALSE(plan.empty());
  EXPECT_NE(plan[0].back().find("slices_track_ts"), std::string::npos) << plan[0].back();
  EXPECT_EQ(db.value("PRAGMA integrity_check"), "ok");
  EXPECT_EQ(db.value("PRAGMA journal_mode"), "delete"); // OFF was for writing only
}

// The query of docs/sqlite-schema.md, word for word.
constexpr const char *kDeviceSummary =
    "SELECT s.value AS name, COUNT(*) AS calls, SUM(dur) AS total_ns, AVG(dur) AS avg_ns,\n"
    "       MIN(dur) AS min_ns, MAX(dur) AS max_ns\n"
    "FROM slices\n"
    "JOIN strings s ON s.id = slices.name_id\n"
    "JOIN tracks t ON t.id = slices.track_id\n"
    "WHERE t.device_id IS NOT NULL\n"
    "GROUP BY slices.name_id\n"
    "ORDER BY total_ns DESC;";

TEST_F(SqliteExporterTest, DeviceSummaryGroupsDeviceSlicesByName) {
  FakeExportHost host;
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "main", 0, 7, 7);
  const prof_track_id device = host.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
  const prof_track_id sip = host.add_track(PROF_TRACK_ENGINE, "SIP 0", device, 0, 0, 0);
  const prof_track_id dma = host.add_track(PROF_TRACK_ENGINE, "DMA 0", device, 0, 0, 0);
  ASSERT_TRUE(run(host, {{host.slice(sip, "conv", 0, 500), host.slice(thread, "conv", 0, 99999),
                          host.slice(sip, "conv", 600, 300), host.slice(dma, "copy", 0, 1000),
                          host.slice(sip, "conv", 1000, 100), host.slice(device, "idle", 0, 1)}}));
  SqliteRows db(path_);
  EXPECT_EQ(db.query(kDeviceSummary), (Rows{{"copy", "1", "1000", "1000.0", "1000", "1000"},
                                            {"conv", "3", "900", "300.0", "100", "500"},
                                            {"idle", "1", "1", "1.0", "1", "1"}}));
  const std::string docs =
      prof::testing::file_text(fs::path(PROF_SOURCE_DIR) / "docs" / "sqlite-schema.md");
  EXPECT_NE(docs.find(kDeviceSummary), std::string::npos)
      << "docs/sqlite-schema.md no longer holds the query tested here";
}

// The query of docs/sqlite-schema.md, word for word.
constexpr const char *kBytesByDirection =
    "SELECT slices.kind, COUNT(*) AS copies, SUM(a.int_value) AS bytes\n"
    "FROM slices\n"
    "JOIN args a ON a.arg_set_id = slices.arg_set_id\n"
    "JOIN strings k ON k.id = a.key_id AND k.value = 'bytes'\n"
    "WHERE slices.kind LIKE 'memcpy%' OR slices.kind = 'memset'\n"
    "GROUP BY slices.kind\n"
    "ORDER BY bytes DESC;\n";

TEST_F(SqliteExporterTest, ArgumentsAndKindsAreRowsToJoin) {
  FakeExportHost host;
  const prof_track_id dma = host.add_track(PROF_TRACK_ENGINE, "DMA 0");
  const uint64_t in = host.add_args({host.uint_arg("bytes", 4096), host.string_arg("peer", "gcu1"),
                                     host.double_arg("ratio", 0.5), host.int_arg("delta", -2)});
  const uint64_t out = host.add_args({host.uint_arg("bytes", 512)});
  const auto copy = [&](const char *name, uint64_t ts, uint64_t args, prof_category kind) {
    return FakeExportHost::with_args(host.slice(dma, name, ts, 10, "DMA"), args, kind);
  };
  ASSERT_TRUE(run(host, {{copy("Memcpy HtoD", 0, in, PROF_CATEGORY_MEMCPY_HTOD),
                          copy("Memcpy HtoD", 100, in, PROF_CATEGORY_MEMCPY_HTOD),
                          copy("Memcpy DtoH", 200, out, PROF_CATEGORY_MEMCPY_DTOH),
                          host.slice(dma, "plain", 300, 10),
                          FakeExportHost::with_args(host.instant(dma, "mark", 400), out,
                                                    PROF_CATEGORY_ANNOTATION)}}));
  SqliteRows db(path_);
  EXPECT_EQ(db.query(kBytesByDirection),
            (Rows{{"memcpy.htod", "2", "8192"}, {"memcpy.dtoh", "1", "512"}}));
  // Each set is written once, its arguments in order with their types.
  EXPECT_EQ(db.query("SELECT a.arg_set_id, a.idx, k.value, a.type, a.int_value, a.real_value, "
                     "v.value FROM args a JOIN strings k ON k.id = a.key_id "
                     "LEFT JOIN strings v ON v.id = a.string_value_id ORDER BY 1, 2"),
            (Rows{{"1", "0", "bytes", "uint", "4096", "NULL", "NULL"},
                  {"1", "1", "peer", "string", "NULL", "NULL", "gcu1"},
                  {"1", "2", "ratio", "real", "NULL", "0.5", "NULL"},
                  {"1", "3", "delta", "int", "-2", "NULL", "NULL"},
                  {"2", "0", "bytes", "uint", "512", "NULL", "NULL"}}));
  EXPECT_EQ(db.query("SELECT kind, arg_set_id FROM slices WHERE name_id = "
                     "(SELECT id FROM strings WHERE value = 'plain')"),
            (Rows{{"NULL", "NULL"}}));
  EXPECT_EQ(db.query("SELECT kind, arg_set_id FROM instants"), (Rows{{"annotation", "2"}}));
  const std::string docs =
      prof::testing::file_text(fs::path(PROF_SOURCE_DIR) / "docs" / "sqlite-schema.md");
  EXPECT_NE(docs.find(kBytesByDirection), std::string::npos)
      << "docs/sqlite-schema.md no longer holds the query tested here";
}

// Every ```sql block of docs/sqlite-schema.md runs on a real database.
TEST_F(SqliteExporterTest, EveryQueryOfTheSchemaDocumentRuns) {
  FakeExportHost host;
  SampleCapture capture(host);
  ASSERT_TRUE(run(host, capture.batches));
  SqliteRows db(path_);
  const std::string docs =
      prof::testing::file_text(fs::path(PROF_SOURCE_DIR) / "docs" / "sqlite-schema.md");
  int queries = 0;
  for (size_t at = docs.find("```sql\n"); at != std::string::npos;
       at = docs.find("```sql\n", at + 1)) {
    const size_t begin = at + 7;
    const size_t end = docs.find("```", begin);
    ASSERT_NE(end, std::string::npos);
    const std::string sql = docs.substr(begin, end - begin);
    SCOPED_TRACE(sql);
    const Rows rows = db.query(sql);
    EXPECT_TRUE(rows.empty() || rows[0].empty() || rows[0][0].rfind("error: ", 0) != 0);
    ++queries;
  }
  EXPECT_GE(queries, 5);
}

TEST_F(SqliteExporterTest, NullsBigIdsAndUnknownEvents) {
  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  prof_event unknown = host.instant(queue, "x", 5);
  unknown.type = 99;
  ASSERT_TRUE(run(host, {{host.counter(queue, 1, std::nan("")), host.slice(0, "rootless", 2, 1),
                          host.flow(queue, 3, ~0ull, PROF_FLOW_BEGIN), host.sample(queue, 4, 0),
                          host.slice(77, "lost track", 6, 1), unknown}}));
  EXPECT_EQ(host.warnings(),
            std::vector<std::string>{"sqlite: 1 events of an unknown type left out"});
  SqliteRows db(path_);
  EXPECT_EQ(db.query("SELECT track_id, value FROM counters"), (Rows{{"1", "NULL"}}));
  EXPECT_EQ(db.query("SELECT track_id, ts FROM slices ORDER BY ts"),
            (Rows{{"NULL", "2"}, {"77", "6"}}));
  EXPECT_EQ(db.query("SELECT flow_id FROM flows"), (Rows{{"-1"}})); // same 64 bits
  EXPECT_EQ(db.query("SELECT stack_id FROM samples"), (Rows{{"NULL"}}));
  EXPECT_EQ(db.value("SELECT COUNT(*) FROM stacks"), "0");
  // A track the host does not know still gets a row.
  EXPECT_EQ(db.query("SELECT t.kind, s.value FROM tracks t JOIN strings s ON s.id = t.name_id "
                     "WHERE t.id = 77"),
            (Rows{{"custom", ""}}));
  EXPECT_EQ(db.value("SELECT value FROM session WHERE key = 'skipped_events'"), "1");
  EXPECT_EQ(db.value("SELECT value FROM session WHERE key = 'events'"), "5");
}

TEST_F(SqliteExporterTest, DeepAndCyclicTrackParents) {
  FakeExportHost host;
  const prof_track_id device = host.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
  prof_track_id parent = device;
  for (int i = 0; i < 100; ++i)
    parent = host.add_track(PROF_TRACK_CUSTOM, "level " + std::to_string(i), parent);
  const prof_track_id a = host.add_track(PROF_TRACK_CUSTOM, "a", 0);
  const prof_track_id b = host.add_track(PROF_TRACK_CUSTOM, "b", a);
  // Make a's parent b: a cycle.
  const_cast<prof_track_desc *>(host.host().track(a))->parent = b;
  ASSERT_TRUE(run(host, {{host.slice(parent, "deep", 0, 1), host.slice(b, "loop", 0, 1)}}));
  SqliteRows db(path_);
  // The chain is cut 64 levels up: that track becomes a root, the device is not reached.
  EXPECT_EQ(db.value("SELECT COUNT(*) FROM tracks"), "67");
  EXPECT_EQ(db.value("SELECT id FROM tracks WHERE parent_id IS NULL"), std::to_string(parent - 64));
  EXPECT_EQ(db.value("SELECT COUNT(*) FROM tracks WHERE device_id IS NOT NULL"), "0");
  EXPECT_EQ(db.query("SELECT id, parent_id FROM tracks WHERE id IN (" + std::to_string(a) + ", " +
                     std::to_string(b) + ") ORDER BY id"),
            (Rows{{std::to_string(a), std::to_string(b)}, {std::to_string(b), std::to_string(a)}}));
}

TEST_F(SqliteExporterTest, CommitsAcrossManyTransactions) {
  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  const prof_event slice = host.slice(queue, "work", 0, 3);
  const uint64_t total = SqliteExporter::kRowsPerTransaction + 5000;
  std::vector<prof_event> batch(4096, slice);
  host.set_option("path", path_);
  {
    SqliteExporter exporter(host.host());
    ASSERT_TRUE(exporter.begin());
    for (uint64_t done = 0; done < total; done += batch.size()) {
      const size_t count = std::min<uint64_t>(batch.size(), total - done);
      for (size_t i = 0; i < count; ++i)
        batch[i].ts = done + i;
      ASSERT_TRUE(exporter.consume(batch.data(), count));
    }
    ASSERT_TRUE(exporter.end()) << ::testing::PrintToString(host.errors());
  }
  SqliteRows db(path_);
  EXPECT_EQ(
      db.query("SELECT COUNT(*), SUM(dur), MIN(ts), MAX(ts) FROM slices"),
      (Rows{{std::to_string(total), std::to_string(3 * total), "0", std::to_string(total - 1)}}));
}

TEST_F(SqliteExporterTest, RefusesAnExistingFileWithoutOverwrite) {
  std::ofstream(path_) << "keep me";
  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  EXPECT_FALSE(run(host, {{host.slice(queue, "work", 0, 1)}}));
  EXPECT_EQ(host.errors(), std::vector<std::string>{"sqlite: '" + path_ + "' already exists"});
  EXPECT_EQ(prof::testing::file_text(path_), "keep me");
  EXPECT_EQ(files(), std::vector<std::string>{"out.sqlite"});

  FakeExportHost again;
  const prof_track_id q = again.add_track(PROF_TRACK_CUSTOM, "queue");
  again.set_option("overwrite", "true");
  ASSERT_TRUE(run(again, {{again.slice(q, "work", 0, 1)}}));
  EXPECT_EQ(SqliteRows(path_).value("SELECT COUNT(*) FROM slices"), "1");
  EXPECT_EQ(files(), std::vector<std::string>{"out.sqlite"});
}

TEST_F(SqliteExporterTest, UnwritablePathFailsWithOneLine) {
  FakeExportHost host;
  host.set_option("path", "/proc/prof-sqlite-test/out.sqlite");
  host_has_path_ = true;
  EXPECT_FALSE(run(host, {}));
  ASSERT_EQ(host.errors().size(), 1u);
  EXPECT_EQ(host.errors()[0].rfind("sqlite: cannot create folder '/proc/prof-sqlite-test'", 0), 0u)
      << host.errors()[0];
  EXPECT_EQ(host.errors()[0].find('\n'), std::string::npos);
  EXPECT_FALSE(fs::exists("/proc/prof-sqlite-test"));

  FakeExportHost missing;
  host_has_path_ = true;
  EXPECT_FALSE(run(missing, {}));
  EXPECT_EQ(missing.errors(), std::vector<std::string>{"sqlite: option path is required"});
}

TEST_F(SqliteExporterTest, FailureAtTheEndLeavesNothing) {
  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  const std::vector<prof_event> events{host.slice(queue, "work", 0, 1)};
  host.set_option("path", path_);
  SqliteExporter exporter(host.host());
  ASSERT_TRUE(exporter.begin());
  ASSERT_TRUE(exporter.consume(events.data(), events.size()));
  EXPECT_EQ(files().size(), 1u); // the temporary file
  EXPECT_NE(files()[0].find("out.sqlite.tmp."), std::string::npos);
  // The final name became a folder with something in it: the rename fails.
  fs::create_directories(path_ + "/taken");
  EXPECT_FALSE(exporter.end());
  ASSERT_EQ(host.errors().size(), 1u);
  EXPECT_EQ(host.errors()[0].rfind("sqlite: cannot rename '", 0), 0u) << host.errors()[0];
  EXPECT_EQ(files(), std::vector<std::string>{"out.sqlite"});
  EXPECT_TRUE(fs::is_directory(path_));
  EXPECT_FALSE(exporter.consume(events.data(), events.size()));
  EXPECT_FALSE(exporter.end());
}

TEST_F(SqliteExporterTest, AnExportNeverEndedLeavesNothing) {
  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  const std::vector<prof_event> events{host.slice(queue, "work", 0, 1)};
  host.set_option("path", path_);
  {
    SqliteExporter exporter(host.host());
    ASSERT_TRUE(exporter.begin());
    ASSERT_TRUE(exporter.consume(events.data(), events.size()));
  }
  EXPECT_TRUE(files().empty());
}

TEST_F(SqliteExporterTest, AFolderReceivesProfPidSqlite) {
  FakeExportHost host;
  host.set_target(4242, "app");
  host.set_option("path", dir_.path() + "/");
  host_has_path_ = true;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  ASSERT_TRUE(run(host, {{host.slice(queue, "work", 0, 1)}}));
  EXPECT_EQ(files(), std::vector<std::string>{"prof-4242.sqlite"});
  EXPECT_EQ(output::resolve_output_path("new/", 42, kExtension), "new/prof-42.sqlite");
}

// A process that exec'd after its first events: its rows take the name the
// host gives it at the end.
TEST_F(SqliteExporterTest, ARenamedProcessAndThreadTakeTheirLastNames) {
  FakeExportHost host;
  host.set_option("path", path_);
  ASSERT_TRUE(prof::testing::run_renamed_during_capture<SqliteExporter>(host))
      << ::testing::PrintToString(host.errors());
  SqliteRows db(path_);
  EXPECT_EQ(db.query("SELECT pid, name FROM processes"), (Rows{{"77", "./app (rank 0)"}}));
  EXPECT_EQ(db.query("SELECT tid, name FROM threads ORDER BY tid"),
            (Rows{{"77", "app"}, {"78", "helper"}}));
  EXPECT_EQ(db.query("SELECT t.id, s.value FROM tracks t JOIN strings s ON s.id = t.name_id "
                     "ORDER BY t.id"),
            (Rows{{"1", "./app (rank 0)"}, {"2", "app"}, {"3", "helper"}}));
}

} // namespace
} // namespace prof::sqlite
