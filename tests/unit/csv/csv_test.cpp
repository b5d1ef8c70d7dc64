// The csv exporter: exact files for a small capture in both modes, the
// error texts users read, temporary-file cleanup, and the built .so.
#include "csv_exporter.hpp"
#include "csv_file.hpp"
#include "tests/support/exporter_plugin_checks.hpp"
#include "tests/support/exporter_test.hpp"
#include "tests/support/file_text.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace prof::csv {
namespace {

namespace fs = std::filesystem;
using prof::testing::FakeExportHost;
using prof::testing::ScratchDir;

std::set<std::string> files_in(const fs::path &folder) {
  std::set<std::string> names;
  for (const auto &entry : fs::directory_iterator(folder))
    names.insert(entry.path().filename().string());
  return names;
}

class CsvExporterTest : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_EQ(fake_.add_stack({"b", "a"}), 1u); } // leaf first: [a <- b]

  ExportHost host() { return fake_.host(); }

  /// begin, consume, end; returns whether all three succeeded.
  bool run(const std::vector<prof_event> &events) {
    CsvExporter exporter(host());
    return exporter.begin() && exporter.consume(events.data(), events.size()) && exporter.end();
  }

  /// GCU 0 > SIP 0, app > main, eth0 > RX rate.
  void add_tracks() {
    device_ = fake_.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
    engine_ = fake_.add_track(PROF_TRACK_ENGINE, "SIP 0", device_);
    process_ = fake_.add_track(PROF_TRACK_PROCESS, "app");
    thread_ = fake_.add_track(PROF_TRACK_THREAD, "main", process_);
    nic_ = fake_.add_track(PROF_TRACK_NETWORK, "eth0");
    rx_ = fake_.add_track(PROF_TRACK_COUNTER, "RX rate", nic_, 0, 0, -1, "bytes/s");
  }

  ScratchDir scratch_;
  fs::path dir_{scratch_.path()};
  FakeExportHost fake_;
  prof_track_id device_ = 0, engine_ = 0, process_ = 0, thread_ = 0, nic_ = 0, rx_ = 0;
};

TEST(CsvFieldTest, QuotesPerRfc4180) {
  const auto quoted = [](std::string_view field) {
    std::string line;
    append_field(line, field);
    return line;
  };
  EXPECT_EQ(quoted("plain name"), "plain name");
  EXPECT_EQ(quoted(""), "");
  EXPECT_EQ(quoted("a,b"), "\"a,b\"");
  EXPECT_EQ(quoted("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(quoted("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(quoted("cr\r"), "\"cr\r\"");
  EXPECT_EQ(format_double(2.5), "2.5");
  EXPECT_EQ(format_double(2), "2");
  EXPECT_EQ(format_double(0.1), "0.1");
}

TEST_F(CsvExporterTest, SummaryModeWritesTheSummaryTables) {
  add_tracks();
  const fs::path out = dir_ / "summary.csv";
  fake_.set_option("path", out.string());
  const std::vector<prof_event> events{
      fake_.slice(engine_, "dot, \"fast\"", 0, 3000, "kernel"),
      fake_.slice(engine_, "copy", 10, 1000, "kernel"),
      fake_.slice(thread_, "topsMalloc", 0, 500, "api"),
      fake_.slice(thread_, "topsMalloc", 600, 1500, "api"),
      fake_.slice(thread_, "read", 0, 7, "osrt"),
      fake_.slice(thread_, "step", 0, 2000),
      fake_.counter(rx_, 0, 1.5),
      fake_.counter(rx_, 10, 2.5),
      fake_.instant(thread_, "mark", 3),
  };
  ASSERT_TRUE(run(events)) << ::testing::PrintToString(fake_.errors());
  EXPECT_EQ(prof::testing::file_text(out),
            "Type,Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Name\n"
            "GCU activites,75.00,3000,1,3000,3000,3000,\"dot, \"\"fast\"\"\"\n"
            "GCU activites,25.00,1000,1,1000,1000,1000,copy\n"
            "API calls,100.00,2000,2,1000,500,1500,topsMalloc\n"
            "OS runtime,100.00,7,1,7,7,7,read\n"
            "Ranges,100.00,2000,1,2000,2000,2000,step\n"
            "\n"
            "Counter,Unit,Min,Avg,Max\n"
            "eth0 / RX rate,bytes/s,1.5,2,2.5\n");
  EXPECT_EQ(files_in(dir_), std::set<std::string>{"summary.csv"});
  EXPECT_EQ(fake_.printed(),
            std::vector<std::string>{"csv: summary of 6 rows written to " + out.string()});
}

TEST_F(CsvExporterTest, SummaryModeWithoutEventsWritesTheHeader) {
  const fs::path out = dir_ / "empty.csv";
  fake_.set_option("path", out.string());
  fake_.set_option("mode", "summary");
  ASSERT_TRUE(run({}));
  EXPECT_EQ(prof::testing::file_text(out),
            "Type,Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Name\n");
}

TEST_F(CsvExporterTest, TablesModeWritesOneFilePerTable) {
  add_tracks();
  const fs::path out = dir_ / "new" / "tables"; // created, parents too
  fake_.set_option("path", out.string());
  fake_.set_option("mode", "tables");
  prof_event slice = fake_.slice(engine_, "dot, \"fast\"", 0, 3000, "kernel");
  slice.id = 7;
  prof_event copy = FakeExportHost::with_args(
      fake_.slice(engine_, "Memcpy HtoD", 4000, 100, "DMA"),
      fake_.add_args({fake_.uint_arg("bytes", 4096), fake_.string_arg("dir", "a;b")}),
      PROF_CATEGORY_MEMCPY_HTOD);
  prof_event sample{};
  sample.type = PROF_EVENT_SAMPLE;
  sample.track = thread_;
  sample.ts = 20;
  sample.id = 1;
  prof_event flow{};
  flow.type = PROF_EVENT_FLOW;
  flow.flags = PROF_FLOW_END;
  flow.track = engine_;
  flow.ts = 30;
  flow.id = 7;
  const std::vector<prof_event> events{
      slice,  copy, fake_.instant(thread_, "two\nlines", 5), fake_.counter(rx_, 10, 2.5), sample,
      sample, // the stack is written once
      flow};
  ASSERT_TRUE(run(events)) << ::testing::PrintToString(fake_.errors());

  EXPECT_EQ(files_in(out),
            (std::set<std::string>{"tracks.csv", "slices.csv", "instants.csv", "counters.csv",
                                   "samples.csv", "stacks.csv", "flows.csv"}));
  EXPECT_EQ(prof::testing::file_text(out / "tracks.csv"), "id,parent,kind,name,pid,tid,index,unit\n"
                                                          "1,0,device,GCU 0,0,0,0,\n"
                                                          "2,1,engine,SIP 0,0,0,-1,\n"
                                                          "3,0,process,app,0,0,-1,\n"
                                                          "4,3,thread,main,0,0,-1,\n"
                                                          "5,0,network,eth0,0,0,-1,\n"
                                                          "6,5,counter,RX rate,0,0,-1,bytes/s\n");
  EXPECT_EQ(prof::testing::file_text(out / "slices.csv"),
            "track,ts_ns,dur_ns,name,category,correlation,kind,args\n"
            "2,0,3000,\"dot, \"\"fast\"\"\",kernel,7,,\n"
            "2,4000,100,Memcpy HtoD,DMA,0,memcpy.htod,bytes=4096;dir=a;b\n");
  EXPECT_EQ(prof::testing::file_text(out / "instants.csv"), "track,ts_ns,name,category,kind,args\n"
                                                            "4,5,\"two\nlines\",,,\n");
  EXPECT_EQ(prof::testing::file_text(out / "counters.csv"), "track,ts_ns,value\n6,10,2.5\n");
  EXPECT_EQ(prof::testing::file_text(out / "samples.csv"),
            "track,ts_ns,stack,category\n4,20,1,\n4,20,1,\n");
  EXPECT_EQ(prof::testing::file_text(out / "stacks.csv"), "stack,depth,frame\n1,0,a\n1,1,b\n");
  EXPECT_EQ(prof::testing::file_text(out / "flows.csv"), "track,ts_ns,flow,phase\n2,30,7,end\n");
  EXPECT_EQ(fake_.printed(),
            std::vector<std::string>{"csv: 7 events written to " + out.string() + "/"});
}

TEST_F(CsvExporterTest, RefusesAnExistingFileWithoutOverwrite) {
  const fs::path out = dir_ / "taken.csv";
  std::ofstream(out) << "keep me\n";
  fake_.set_option("path", out.string());
  CsvExporter exporter(host());
  EXPECT_FALSE(exporter.begin());
  EXPECT_EQ(fake_.errors(), std::vector<std::string>{"csv: '" + out.string() + "' already exists"});
  EXPECT_EQ(prof::testing::file_text(out), "keep me\n");
  EXPECT_EQ(files_in(dir_), std::set<std::string>{"taken.csv"});

  fake_.set_option("overwrite", "true");
  ASSERT_TRUE(run({}));
  EXPECT_EQ(prof::testing::file_text(out),
            "Type,Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Name\n");
}

TEST_F(CsvExporterTest, TablesModeRefusesExistingTablesWithoutOverwrite) {
  std::ofstream(dir_ / "slices.csv") << "keep me\n";
  fake_.set_option("path", dir_.string());
  fake_.set_option("mode", "tables");
  CsvExporter exporter(host());
  EXPECT_FALSE(exporter.begin());
  EXPECT_EQ(fake_.errors(), std::vector<std::string>{"csv: '" + (dir_ / "slices.csv").string() +
                                                     "' already exists"});
  EXPECT_EQ(files_in(dir_), std::set<std::string>{"slices.csv"}); // no temporaries left
}

TEST_F(CsvExporterTest, TablesModeRefusesAFileAsFolder) {
  const fs::path out = dir_ / "file.csv";
  std::ofstream(out) << "x\n";
  fake_.set_option("path", out.string());
  fake_.set_option("mode", "tables");
  CsvExporter exporter(host());
  EXPECT_FALSE(exporter.begin());
  EXPECT_EQ(fake_.errors(),
            std::vector<std::string>{"csv: " + out.string() +
                                     " exists and is not a folder (mode=tables writes a "
                                     "folder of CSV files)"});
}

TEST_F(CsvExporterTest, MissingPathIsAnError) {
  CsvExporter exporter(host());
  EXPECT_FALSE(exporter.begin());
  EXPECT_EQ(fake_.errors(), std::vector<std::string>{"csv: option path is required"});
}

// As every file exporter's: a folder receives the summary as prof-<pid>.csv.
TEST_F(CsvExporterTest, SummaryModeAFolderReceivesProfPidCsv) {
  fake_.set_target(4242, "app");
  fake_.set_option("path", dir_.string() + "/");
  ASSERT_TRUE(run({}));
  EXPECT_EQ(files_in(dir_), std::set<std::string>{"prof-4242.csv"});
  EXPECT_EQ(fake_.printed(), std::vector<std::string>{"csv: summary of 0 rows written to " +
                                                      (dir_ / "prof-4242.csv").string()});
}

TEST_F(CsvExporterTest, UnknownModeIsAnError) {
  fake_.set_option("path", (dir_ / "x.csv").string());
  fake_.set_option("mode", "json");
  CsvExporter exporter(host());
  EXPECT_FALSE(exporter.begin());
  EXPECT_EQ(fake_.errors(),
            std::vector<std::string>{"csv: unknown mode 'json' (choose summary or tables)"});
}

TEST_F(CsvExporterTest, UnwritablePathFailsAtBegin) {
  // A missing folder is created, as for every file exporter; one that
  // cannot be (its parent is a file) fails with the reason.
  std::ofstream(dir_ / "plain-file") << "x";
  const fs::path out = dir_ / "plain-file" / "sub" / "x.csv";
  fake_.set_option("path", out.string());
  CsvExporter exporter(host());
  EXPECT_FALSE(exporter.begin());
  EXPECT_EQ(fake_.errors(), std::vector<std::string>{"csv: cannot create folder '" +
                                                     (dir_ / "plain-file" / "sub").string() +
                                                     "': Not a directory"});
}

TEST_F(CsvExporterTest, TemporaryFilesAreRemovedWhenTheExportIsAbandoned) {
  add_tracks();
  fake_.set_option("path", (dir_ / "summary.csv").string());
  {
    CsvExporter exporter(host());
    ASSERT_TRUE(exporter.begin());
    EXPECT_EQ(files_in(dir_).size(), 1u); // the temporary file
    const prof_event e = fake_.slice(engine_, "k", 0, 1);
    ASSERT_TRUE(exporter.consume(&e, 1));
  } // destroyed without end()
  EXPECT_TRUE(files_in(dir_).empty());

  fake_.set_option("path", (dir_ / "tables").string());
  fake_.set_option("mode", "tables");
  {
    CsvExporter exporter(host());
    ASSERT_TRUE(exporter.begin());
    EXPECT_EQ(files_in(dir_ / "tables").size(), 7u);
    const prof_event e = fake_.slice(engine_, "k", 0, 1);
    ASSERT_TRUE(exporter.consume(&e, 1));
  }
  EXPECT_TRUE(files_in(dir_ / "tables").empty());
}

TEST_F(CsvExporterTest, BuiltPluginDescriptorAndExport) {
  prof::testing::LoadedPlugin plugin("csv");
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_plugin_descriptor &d = *plugin.descriptor();
  prof::testing::expect_common_fields(d, "csv", PROF_KIND_EXPORTER);
  prof::testing::expect_path_and_overwrite_options(d);
  prof::testing::expect_complete_exporter_vtable(*d.exporter);
  prof::testing::expect_begin_requires_path(*d.exporter, "csv");
  const prof_option_desc *mode = prof::testing::find_option(d, "mode");
  ASSERT_NE(mode, nullptr);
  EXPECT_EQ(mode->type, PROF_OPTION_ENUM);
  EXPECT_STREQ(mode->default_value, "summary");
  EXPECT_STREQ(mode->choices, "summary,tables");

  add_tracks();
  const fs::path out = dir_ / "plugin.csv";
  fake_.set_option("path", out.string());
  const std::vector<prof_event> events{fake_.slice(engine_, "dot_dtu", 0, 1220000),
                                       fake_.slice(engine_, "dot_dtu", 5, 0)};
  ASSERT_TRUE(prof::testing::export_through_vtable(*d.exporter, fake_, events));
  EXPECT_EQ(prof::testing::file_text(out),
            "Type,Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Name\n"
            "GCU activites,100.00,1220000,2,610000,0,1220000,dot_dtu\n");
}

// A process that exec'd after its first events: its row has the name the
// host gives it at the end.
TEST_F(CsvExporterTest, TablesModeNamesTracksAsTheyAreAtTheEnd) {
  const fs::path out = dir_ / "tables";
  fake_.set_option("path", out.string());
  fake_.set_option("mode", "tables");
  ASSERT_TRUE(prof::testing::run_renamed_during_capture<CsvExporter>(fake_))
      << ::testing::PrintToString(fake_.errors());
  EXPECT_EQ(prof::testing::file_text(out / "tracks.csv"), "id,parent,kind,name,pid,tid,index,unit\n"
                                                          "1,0,process,./app (rank 0),77,0,-1,\n"
                                                          "2,1,thread,app,77,77,-1,\n"
                                                          "3,1,thread,helper,77,78,-1,\n");
}

} // namespace
} // namespace prof::csv
