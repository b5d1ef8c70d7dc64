// The one prof_export_api table over its two views: a live catalog and a
// report read back answer an exporter alike, and the table's C conventions
// (counts, nullptr for nothing, "" for a null line) hold for both.
#include "core/events/report_sink.hpp"
#include "core/plugin_host/catalog_export_view.hpp"
#include "core/plugin_host/report_export_view.hpp"
#include "tests/support/scratch_dir.hpp"

#include <prof/event.hpp>

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace prof::core;

namespace {

// A catalog with two tracks, a stack and an argument set, saved as a report.
class ExportViews : public ::testing::Test {
protected:
  void SetUp() override {
    header_.session_name = "views";
    header_.pids = {4321, 4322};
    header_.command_display = "app --flag";
    header_.host_name = "node7";
    header_.rank = "3";
    header_.plugins = {{"cpu-util", "1.0", {{"interval", "10"}}}};
    prof_track_desc process{
        sizeof(prof_track_desc), PROF_TRACK_PROCESS, 0, "app", 4321, 0, -1, nullptr, 0};
    process_ = live_.tracks.declare(&process);
    prof_track_desc counter{
        sizeof(prof_track_desc), PROF_TRACK_COUNTER, process_, "RSS", 4321, 0, -1, "bytes", 0};
    counter_ = live_.tracks.declare(&counter);
    const prof_string_id frames[] = {live_.strings.intern("leaf"), live_.strings.intern("main")};
    stack_ = live_.stacks.intern(frames);
    const prof_arg args[] = {
        prof::arg_uint(live_.strings.intern("bytes"), 4096),
        prof::arg_string(live_.strings.intern("dir"), live_.strings.intern("HtoD")),
        prof::arg_stack(live_.strings.intern("stack"), stack_)};
    args_ = live_.args.intern(args);

    path_ = dir_.file("views.profrep");
    prof::report::ReportWriter writer;
    writer.open(path_, header_, true);
    ReportSink sink(writer);
    sink.catalog_grew(live_, CatalogMark{}, mark_of(live_));
    sink.finish(live_, end_);
    ASSERT_TRUE(sink.error().empty()) << sink.error();
    ASSERT_TRUE(reader_.open(path_));
    live_session_ = session_of(header_, live_details_);
  }

  prof::testing::ScratchDir dir_;
  std::string path_;
  prof::report::Header header_;
  Catalog live_;
  prof_track_id process_ = 0, counter_ = 0;
  prof_stack_id stack_ = 0;
  prof_args_id args_ = 0;
  prof::report::ReportReader reader_;
  // 7 ring-full drops, and one count of every other cause (two sources
  // counted device-buffer losses).
  const CaptureEnd end_{1000,
                        0,
                        7,
                        {{0, 4321, 7},
                         {prof::report::cause_ring(PROF_DROP_INVALID_EVENT), 0, 3},
                         {prof::report::cause_ring(PROF_DROP_DEVICE_BUFFER_FULL), 0, 40},
                         {prof::report::cause_ring(PROF_DROP_DEVICE_BUFFER_FULL), 0, 2},
                         {prof::report::cause_ring(PROF_DROP_KERNEL_LOST), 0, 5},
                         {prof::report::cause_ring(PROF_DROP_CATALOG_FULL), 0, 1}},
                        0,
                        0};
  SessionDetails live_details_;
  prof_session_info live_session_{};
};

// Records what the table hands to print and log.
struct RecordingView final : CatalogExportView {
  using CatalogExportView::CatalogExportView;
  void print(std::string_view line) override { lines.emplace_back(line); }
  void log(prof_log_level, std::string_view message) override { logs.emplace_back(message); }
  std::vector<std::string> lines, logs;
};

} // namespace

TEST_F(ExportViews, LiveAndReportAnswerTheSameThroughTheTable) {
  CatalogExportView live(live_, live_session_);
  live.set_drops(end_);
  const ReportExportView saved(reader_);
  const prof::ExportHost hosts[] = {export_host(live), saved.host()};
  for (const prof::ExportHost &host : hosts) {
    SCOPED_TRACE(&host == &hosts[0] ? "live" : "report");
    EXPECT_EQ(host.string(live_.strings.intern("leaf")), "leaf");
    EXPECT_EQ(host.string(99999), "");

    const prof_track_desc *counter = host.track(counter_);
    ASSERT_NE(counter, nullptr);
    EXPECT_EQ(counter->kind, PROF_TRACK_COUNTER);
    EXPECT_EQ(counter->parent, process_);
    EXPECT_STREQ(counter->name, "RSS");
    EXPECT_STREQ(counter->unit, "bytes");
    EXPECT_EQ(counter->pid, 4321);
    EXPECT_EQ(host.track(process_)->unit, nullptr);
    EXPECT_EQ(host.track(9999), nullptr);

    const auto [frames, count] = host.stack(stack_);
    ASSERT_EQ(count, 2u);
    EXPECT_EQ(host.string(frames[0]), "leaf");
    EXPECT_EQ(host.string(frames[1]), "main");
    EXPECT_EQ(host.stack(999).second, 0u);

    EXPECT_EQ(host.args_text(args_, " "), "bytes=4096 dir=HtoD stack=leaf <- main");
    EXPECT_TRUE(host.args(0).empty());
    EXPECT_TRUE(host.args(999).empty());

    EXPECT_STREQ(host.session().session_name, "views");
    EXPECT_EQ(host.session().target_pid, 4321);
    EXPECT_EQ(host.session().pid_count, 2u);
    EXPECT_STREQ(host.session().command, "app --flag");
    EXPECT_STREQ(host.session().hostname, "node7");
    EXPECT_STREQ(host.session().rank, "3");
    EXPECT_STREQ(host.session().plugins, "cpu-util 1.0 interval=10\n");
    EXPECT_EQ(host.dropped_events(), 7u);
    EXPECT_EQ(host.dropped(PROF_DROP_RING_FULL), 7u);
    EXPECT_EQ(host.dropped(PROF_DROP_INVALID_EVENT), 3u);
    EXPECT_EQ(host.dropped(PROF_DROP_DEVICE_BUFFER_FULL), 42u);
    EXPECT_EQ(host.dropped(PROF_DROP_KERNEL_LOST), 5u);
    EXPECT_EQ(host.dropped(PROF_DROP_CATALOG_FULL), 1u);
    EXPECT_EQ(host.dropped(static_cast<prof_drop_cause>(99)), 0u);
    EXPECT_FALSE(host.option("anything"));
  }
}

TEST_F(ExportViews, TheTableHandsNothingAsNullWithACountOfZero) {
  const ReportExportView saved(reader_);
  const prof_export_api &api = export_api();
  EXPECT_EQ(api.struct_size, sizeof(prof_export_api));
  void *host = const_cast<ReportExportView *>(&saved);
  uint32_t count = 5;
  EXPECT_EQ(api.stack(host, 999, &count), nullptr);
  EXPECT_EQ(count, 0u);
  count = 5;
  EXPECT_EQ(api.args(host, 0, &count), nullptr);
  EXPECT_EQ(count, 0u);
  EXPECT_NE(api.args(host, args_, nullptr), nullptr); // a count is optional
}

TEST_F(ExportViews, PrintAndLogReachTheViewWithNullAsEmpty) {
  RecordingView view(live_, live_session_);
  const prof_export_api &api = export_api();
  api.print(&view, "line one");
  api.print(&view, nullptr);
  api.log(&view, PROF_LOG_WARN, "careful");
  api.log(&view, PROF_LOG_ERROR, nullptr);
  EXPECT_EQ(view.lines, (std::vector<std::string>{"line one", ""}));
  EXPECT_EQ(view.logs, (std::vector<std::string>{"careful", ""}));
}

TEST_F(ExportViews, AReportViewIsSharedByReadingThreads) {
  const ReportExportView saved(reader_);
  std::vector<std::thread> threads;
  std::vector<int> right(4, 0);
  for (size_t t = 0; t < right.size(); ++t)
    threads.emplace_back([&, t] {
      const prof::ExportHost host = saved.host();
      for (int i = 0; i < 1000; ++i) {
        host.print("ignored"); // goes nowhere
        host.log(PROF_LOG_ERROR, "ignored");
        right[t] += host.args_text(args_, ",") == "bytes=4096,dir=HtoD,stack=leaf <- main" &&
                    host.track(counter_) != nullptr;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(right, std::vector<int>(4, 1000));
}
