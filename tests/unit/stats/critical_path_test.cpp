// The critical path of a step (prof stats --report critical-path), walked on
// small reports whose path is known: two ranks meeting in a collective that
// one of them comes to late (on the calling thread as MPI calls it, and
// queued to a worker thread as torch's gloo backend runs it), and one
// process whose thread waits for a kernel it launched. Also: the collector
// keeps only the steps asked for, and the steps report names a slow step's
// late rank.
#include "stats_report_fixture.hpp"
#include "stats_test_report.hpp"

#include "core/report/report_reader.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/file_text.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/process_runner.hpp"
#include <prof/stats/critical_path.hpp>
#include <prof/stats/process_label.hpp>
#include <prof/stats/step_slices.hpp>

#include <gtest/gtest.h>

#include <set>

namespace prof::stats {
namespace {

using testing::kOrigin;
using testing::kUs;
using testing::value;

uint64_t us(uint64_t t) { return kOrigin + t * kUs; }

class CriticalPathTest : public testing::ReportFixture {
protected:
  /// The paths of the `slowest` steps and of `wanted`, as prof stats walks them.
  std::vector<CriticalPath> walk(size_t slowest = 3, const std::vector<uint64_t> &wanted = {}) {
    const StatsAggregator aggregator =
        tool::scan_report(reader_, host(), scope_for({"critical-path"}, {}), {}).aggregator;
    StepSliceCollector collector(host(), choose_step_windows(aggregator, slowest, wanted));
    const std::vector<prof_event> events = reader_.read_all_events();
    collector.add(events.data(), events.size());
    collector.finish();
    kept_ = collector.slice_count();
    return find_critical_paths(collector);
  }
  ExportHost host() const { return host_->host(); }
  std::string text(prof_string_id id) const { return std::string(host().string(id)); }
  /// "WORK NAME" of each stretch, in time order ("-" for a gap).
  std::vector<std::string> stretches(const CriticalPath &path) const {
    std::vector<std::string> out;
    for (const PathSegment &s : path.segments)
      out.push_back(std::string(path_work_name(s.work)) + " " +
                    (s.name ? text(s.name) : std::string("-")) + " " +
                    std::to_string((s.end - s.begin) / kUs));
    return out;
  }
  /// The critical-path report's line for the first of `paths`.
  std::string line(const std::vector<CriticalPath> &paths) {
    ReportOptions options;
    options.critical_paths = &paths;
    const StatsTable table = one("critical-path", options);
    return table.notes.empty() ? "no notes" : table.notes.front();
  }
  size_t kept_ = 0;
};

// Rank 0 calls the all-reduce at 100 us and waits in it until 900; rank 1
// computes until 800 and then joins: rank 1's arrival released rank 0.
//   rank 0: step [0, 1000): all_reduce [100, 900), update [900, 1000)
//   rank 1: step [0, 950):  work [0, 800), all_reduce [800, 900)
TEST_F(CriticalPathTest, ALateRankToACollectiveIsOnThePathOfTheOthers) {
  testing::TestReport r;
  const uint32_t p0 = r.process("train [node rank 0]", 10),
                 p1 = r.process("train [node rank 1]", 11);
  const uint32_t t0 = r.thread(p0, "train", 10), t1 = r.thread(p1, "train", 11);
  r.step(t0, us(0), 1000 * kUs, 1);
  r.op(t0, us(0), 100 * kUs, "forward");
  r.communication(t0, us(100), 800 * kUs, "all_reduce", "world", 64, 1);
  r.op(t0, us(900), 100 * kUs, "update");
  r.step(t1, us(0), 950 * kUs, 1);
  r.op(t1, us(0), 800 * kUs, "work");
  r.communication(t1, us(800), 100 * kUs, "all_reduce", "world", 64, 1);
  open(r, 4);

  const std::vector<CriticalPath> paths = walk();
  ASSERT_EQ(paths.size(), 1u);
  const CriticalPath &path = paths[0];
  EXPECT_EQ(path.step, 1u);
  EXPECT_EQ(path.length(), 1000 * kUs);
  EXPECT_EQ(stretches(path),
            (std::vector<std::string>{"host work 800", "communication all_reduce 100",
                                      "host update 100"}));
  EXPECT_EQ(path.segments[0].process, p1);
  EXPECT_EQ(path.segments[2].process, p0);
  EXPECT_EQ(path.by_work[static_cast<size_t>(PathWork::Host)], 900 * kUs);
  EXPECT_EQ(path.by_work[static_cast<size_t>(PathWork::Communication)], 100 * kUs);
  const PathWait *wait = path.largest_wait();
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(wait->late, p1);
  EXPECT_EQ(wait->waiting, p0);
  EXPECT_EQ(wait->sequence, 1u);
  EXPECT_EQ(wait->waited, 700 * kUs);
  EXPECT_EQ(wait->lateness, 700 * kUs);

  ReportOptions options;
  options.critical_paths = &paths;
  const StatsTable table = one("critical-path", options);
  ASSERT_EQ(table.sections.size(), 2u);
  EXPECT_EQ(value(table, 0, 0, "Time(ns)"), std::to_string(1000 * kUs));
  EXPECT_EQ(value(table, 0, 0, "LateBy(ns)"), std::to_string(700 * kUs));
  EXPECT_EQ(value(table, 0, 0, "WhatIf(ns)"), std::to_string(300 * kUs));
  EXPECT_EQ(value(table, 0, 0, "Late"), "train [node rank 1] (11)");
  EXPECT_EQ(value(table, 1, 0, "Process"), "train [node rank 1] (11)");
  EXPECT_EQ(value(table, 1, 0, "Longest"), "work in step");
  EXPECT_EQ(table.notes.front(),
            "step 1: 1.00ms; 700.00us of it waiting for train [node rank 1] (11) at world "
            "all_reduce #1, which was then in work in step on its thread train (11)");
}

// The late rank ends the step last itself: the path stays on it, and its
// late arrival at the all-reduce is what the others waited for.
//   rank 0: step [0, 900):  forward [0, 100), all_reduce [100, 850), update [850, 900)
//   rank 1: step [0, 1000): work [0, 800), all_reduce [800, 850), update [850, 1000)
TEST_F(CriticalPathTest, ALateRankThatEndsLastHeldTheOthersUp) {
  testing::TestReport r;
  const uint32_t p0 = r.process("train [node rank 0]", 10),
                 p1 = r.process("train [node rank 1]", 11);
  const uint32_t t0 = r.thread(p0, "train", 10), t1 = r.thread(p1, "train", 11);
  r.step(t0, us(0), 900 * kUs, 1);
  r.op(t0, us(0), 100 * kUs, "forward");
  r.communication(t0, us(100), 750 * kUs, "all_reduce", "world", 64, 1);
  r.op(t0, us(850), 50 * kUs, "update");
  r.step(t1, us(0), 1000 * kUs, 1);
  r.op(t1, us(0), 800 * kUs, "work");
  r.communication(t1, us(800), 50 * kUs, "all_reduce", "world", 64, 1);
  r.op(t1, us(850), 150 * kUs, "update");
  open(r, 4);

  const std::vector<CriticalPath> paths = walk();
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(stretches(paths[0]),
            (std::vector<std::string>{"host work 800", "communication all_reduce 50",
                                      "host update 150"}));
  const PathWait *wait = paths[0].largest_wait();
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(wait->late, p1);
  EXPECT_EQ(wait->waiting, p0);
  EXPECT_EQ(wait->lateness, 700 * kUs);
  EXPECT_EQ(line(paths), "step 1: 1.00ms; 700.00us of it waiting for train [node rank 1] (11) at "
                         "world all_reduce #1, which was then in work in step on its thread "
                         "train (11)");
}

// As torch's gloo backend runs them: the main thread queues the all-reduce
// to a worker thread (its `queued` argument) and later waits for it with
// nothing recorded; rank 1 sleeps (nothing recorded) before its forward.
//   rank 0 main: forward [0, 100), allreduce_ [100, 110), copy [905, 1000)
//   rank 0 worker: all_reduce [110, 900), queued 5 us
//   rank 1 main: forward [700, 800), allreduce_ [800, 810), copy [895, 950)
//   rank 1 worker: all_reduce [810, 890), queued 5 us
testing::TestReport gloo_ranks() {
  testing::TestReport r;
  const uint32_t p0 = r.process("train [node rank 0]", 10),
                 p1 = r.process("train [node rank 1]", 11);
  const uint32_t main0 = r.thread(p0, "train", 10), worker0 = r.thread(p0, "gloo", 12);
  const uint32_t main1 = r.thread(p1, "train", 11), worker1 = r.thread(p1, "gloo", 13);
  r.step(main0, us(0), 1000 * kUs, 1);
  r.op(main0, us(0), 100 * kUs, "forward");
  r.op(main0, us(100), 10 * kUs, "allreduce_");
  r.communication(worker0, us(110), 790 * kUs, "all_reduce", "gloo:0", 64, 1);
  r.queued(5 * kUs);
  r.op(main0, us(905), 95 * kUs, "copy");
  r.step(main1, us(0), 950 * kUs, 1);
  r.op(main1, us(700), 100 * kUs, "forward");
  r.op(main1, us(800), 10 * kUs, "allreduce_");
  r.communication(worker1, us(810), 80 * kUs, "all_reduce", "gloo:0", 64, 1);
  r.queued(5 * kUs);
  r.op(main1, us(895), 55 * kUs, "copy");
  return r;
}

TEST_F(CriticalPathTest, AQueuedCollectiveLeadsToTheThreadThatQueuedIt) {
  open(gloo_ranks(), 5);

  const std::vector<CriticalPath> paths = walk();
  ASSERT_EQ(paths.size(), 1u);
  const CriticalPath &path = paths[0];
  EXPECT_EQ(stretches(path),
            (std::vector<std::string>{"untraced step 700", "host forward 100", "host allreduce_ 5",
                                      "waiting - 5", "communication all_reduce 90",
                                      "untraced step 5", "host copy 95"}));
  EXPECT_EQ(thread_label(host(), path.segments[3].track), "gloo (13)");
  EXPECT_EQ(thread_label(host(), path.segments[4].track), "gloo (12)");
  EXPECT_EQ(path.length(), 1000 * kUs);
  const PathWait *wait = path.largest_wait();
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(process_label(host(), wait->late), "train [node rank 1] (11)");
  EXPECT_EQ(wait->lateness, 700 * kUs) << "rank 1 queued it at 805, rank 0 at 105";
  EXPECT_EQ(line(paths),
            "step 1: 1.00ms; 700.00us of it waiting for train [node rank 1] (11) at gloo:0 "
            "all_reduce #1, which was then in step (nothing recorded under it) on its thread "
            "train (11)");
}

// A thread launches a kernel and synchronizes (a synchronization slice, or
// a runtime call that launched nothing): the path goes from the
// synchronization to the kernel it waited for, and by the launch's flow to
// the launch call.
//   thread: launch [100, 110) (flow at 105), synchronize [120, 500), op [500, 520)
//   device queue: kernel [150, 480) (flow end at 150)
TEST_F(CriticalPathTest, ASynchronizationWaitsForTheKernelAndTheKernelForItsLaunch) {
  for (const prof_category wait : {PROF_CATEGORY_SYNC, PROF_CATEGORY_RUNTIME_API}) {
    SCOPED_TRACE(wait);
    testing::TestReport r;
    const uint32_t app = r.process("app", 10);
    const uint32_t thread = r.thread(app, "app", 10);
    const uint32_t device = r.shared(PROF_TRACK_DEVICE, 0, "GPU 0", 0);
    const uint32_t queue = r.owned(PROF_TRACK_ENGINE, device, "Stream 7", 10);
    r.step(thread, us(0), 520 * kUs, 1);
    r.call(thread, us(100), 10 * kUs, "launch", 7);
    r.flow(thread, us(105), 1, PROF_FLOW_BEGIN);
    r.slice(thread, us(120), 380 * kUs, "synchronize", "api", wait);
    r.op(thread, us(500), 20 * kUs, "op");
    r.slice(queue, us(150), 330 * kUs, "gemm", "kernel", PROF_CATEGORY_KERNEL);
    r.flow(queue, us(150), 1, PROF_FLOW_END);
    open(r, 3);

    const std::vector<CriticalPath> paths = walk();
    ASSERT_EQ(paths.size(), 1u);
    const CriticalPath &path = paths[0];
    EXPECT_EQ(stretches(path), (std::vector<std::string>{"untraced step 100", "launch launch 5",
                                                         "launch - 45", "compute gemm 330",
                                                         "waiting synchronize 20", "host op 20"}));
    EXPECT_EQ(path.segments[3].track, queue);
    EXPECT_EQ(path.by_work[static_cast<size_t>(PathWork::Compute)], 330 * kUs);
    EXPECT_EQ(path.by_work[static_cast<size_t>(PathWork::Launch)], 50 * kUs);
    EXPECT_EQ(path.largest_wait(), nullptr);
    EXPECT_EQ(line(paths),
              "step 1: 520.00us; on its critical path: compute 330.00us, untraced 100.00us, "
              "launch 50.00us");
  }
}

// An operator computing while another thread's communication call ends is
// working, not waiting for it: the path stays on its thread.
//   main: step [0, 500): mm [0, 500) with resolve [0, 10) in it
//   worker: broadcast [100, 300)
TEST_F(CriticalPathTest, AnOperatorsOwnTimeIsWorkNotAWait) {
  testing::TestReport r;
  const uint32_t app = r.process("app", 10);
  const uint32_t main = r.thread(app, "app", 10), worker = r.thread(app, "worker", 11);
  r.step(main, us(0), 500 * kUs, 1);
  r.op(main, us(0), 500 * kUs, "mm");
  r.op(main, us(0), 10 * kUs, "resolve");
  r.communication(worker, us(100), 200 * kUs, "broadcast", "world");
  open(r, 3);
  const std::vector<CriticalPath> paths = walk();
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(stretches(paths[0]), (std::vector<std::string>{"host resolve 10", "host mm 490"}));
}

// Ten steps of which step 7 is slow: the slowest step alone is kept (its
// slices, not the others'), or the step asked for; the steps report names
// what held the slow step up.
TEST_F(CriticalPathTest, OnlyTheStepsAskedForAreKept) {
  testing::TestReport r;
  const uint32_t p0 = r.process("train [node rank 0]", 10),
                 p1 = r.process("train [node rank 1]", 11);
  const uint32_t t0 = r.thread(p0, "train", 10), t1 = r.thread(p1, "train", 11);
  uint64_t at = 0;
  for (uint64_t step = 1; step <= 10; ++step) {
    const uint64_t work = step == 7 ? 900 : 100;
    r.step(t0, us(at), (work + 20) * kUs, step);
    r.op(t0, us(at), 10 * kUs, "forward");
    r.communication(t0, us(at + 10), (work + 10) * kUs, "all_reduce", "world", 64, step);
    r.step(t1, us(at), (work + 20) * kUs, step);
    r.op(t1, us(at), work * kUs, "forward");
    r.communication(t1, us(at + work), 20 * kUs, "all_reduce", "world", 64, step);
    at += work + 20;
  }
  open(r, 7);

  std::vector<CriticalPath> paths = walk(1);
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(paths[0].step, 7u);
  EXPECT_EQ(kept_, 6u) << "two steps, an op and a call on two ranks, of step 7 alone";
  paths = walk(0, {3});
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(paths[0].step, 3u);

  paths = walk(1);
  ReportOptions options;
  options.critical_paths = &paths;
  const StatsTable steps = one("steps", options);
  EXPECT_NE(std::find(steps.notes.begin(), steps.notes.end(),
                      "step 7: 920.00us; 890.00us of it waiting for train [node rank 1] (11) at "
                      "world all_reduce #7, which was then in forward in step on its thread "
                      "train (11)"),
            steps.notes.end())
      << ::testing::PrintToString(steps.notes);
}

// `prof export --mark critical-path`: the Chrome JSON export has a process
// "Critical path" with the step's path and its stretches, and flows where
// the path moves from one thread to another.
TEST_F(CriticalPathTest, AChromeJsonExportShowsThePathAsATrack) {
  open(gloo_ranks(), 5);
  const std::string out = dir_.file("marked.json");
  const e2e::RunResult run = e2e::run_process(
      {e2e::kProf, "export", "-t", "chrome-json", "--mark", "critical-path", "-o", out, path_}, {},
      std::chrono::seconds(60));
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const prof::testing::Json trace =
      prof::testing::JsonParser::parse(prof::testing::file_text(out))["traceEvents"];
  double pid = -1;
  for (const auto &e : trace.items)
    if (e["ph"].text == "M" && e["name"].text == "process_name" &&
        e["args"]["name"].text == "Critical path")
      pid = e["pid"].number;
  ASSERT_GE(pid, 0) << "no Critical path process";
  std::vector<std::string> names;
  size_t flows = 0;
  for (const auto &e : trace.items) {
    // The path's own flows have ids from 2^62 on.
    if ((e["ph"].text == "s" || e["ph"].text == "f") && e["id"].text.starts_with("0x40000000"))
      ++flows;
    if (e["ph"].text != "X" || e["pid"].number != pid) continue;
    names.push_back(e["name"].text);
    if (e["name"].text == "step 1 critical path") {
      EXPECT_EQ(e["dur"].number, 1000);
      EXPECT_EQ(e["args"]["lateness"].number, 700 * kUs);
      EXPECT_EQ(e["args"]["late"].text, "train [node rank 1] (11)");
    }
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"step 1 critical path", "untraced: step", "host: forward",
                                      "host: allreduce_", "waiting", "communication: all_reduce",
                                      "untraced: step", "host: copy"}));
  EXPECT_EQ(flows, 6u) << "three moves: to rank 1's worker, rank 0's worker, rank 0's main";

  const e2e::RunResult bad = e2e::run_process(
      {e2e::kProf, "export", "-t", "chrome-json", "--mark", "path", "-o", out + "2", path_}, {},
      std::chrono::seconds(60));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "prof: export: --mark 'path' is not critical-path\n");
  EXPECT_FALSE(std::filesystem::exists(out + "2"));
}

// The same mark through Perfetto: exported, imported back by prof's own
// Perfetto importer, the path's track and its step slice are there.
TEST_F(CriticalPathTest, APerfettoExportShowsThePathAsATrack) {
  open(gloo_ranks(), 5);
  const std::string trace = dir_.file("marked.perfetto-trace");
  const e2e::RunResult run = e2e::run_process(
      {e2e::kProf, "export", "-t", "perfetto", "--mark", "critical-path", "-o", trace, path_}, {},
      std::chrono::seconds(60));
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string back = dir_.file("back.profrep");
  const e2e::RunResult imported =
      e2e::run_process({e2e::kProf, "import", "-o", back, trace}, {}, std::chrono::seconds(60));
  ASSERT_EQ(imported.exit_code, 0) << imported.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(back));
  std::set<uint32_t> path_tracks;
  for (const auto &[id, track] : reader.tracks())
    if (track.name == "Critical path") path_tracks.insert(id);
  ASSERT_FALSE(path_tracks.empty()) << "no Critical path track";
  std::set<std::string> names;
  reader.for_each_event_batch([&](const prof_event *events, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const prof_event &e = events[i];
      bool on_path = false;
      for (uint32_t t = e.track; t != 0 && !on_path; t = reader.tracks().at(t).parent)
        on_path = path_tracks.contains(t);
      if (on_path && e.type == PROF_EVENT_SLICE) names.insert(reader.strings()[e.name]);
    }
  });
  EXPECT_TRUE(names.contains("step 1 critical path")) << ::testing::PrintToString(names);
  EXPECT_TRUE(names.contains("communication: all_reduce")) << ::testing::PrintToString(names);
}

} // namespace
} // namespace prof::stats
