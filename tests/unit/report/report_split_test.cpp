// Splitting one report of a launcher's ranks into one report per rank: each
// rank's processes with their threads, events, argument sets and ring drops;
// the launcher's part in its own; tracks of no process in every one.
#include "core/report/report_reader.hpp"
#include "core/report/report_split.hpp"
#include "core/report/report_writer.hpp"
#include "tests/support/report_test_support.hpp"

#include <prof/launcher_rank.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

namespace prof::report {
namespace {

using namespace prof::report::testing;

TEST(LauncherRank, TheSuffixReadsBack) {
  EXPECT_EQ(rank_suffix("3"), " (rank 3)");
  EXPECT_EQ(rank_in_track_name("./app --x (rank 12)"), 12);
  EXPECT_EQ(rank_in_track_name("python3 train.py" + rank_suffix("0")), 0);
  for (const char *name : {"mpirun", "app (rank )", "app (rank x)", "app (rank 3", "app (rank -1)",
                           "app (rank 12345678901)", "(rank 1) app"})
    EXPECT_EQ(rank_in_track_name(name), -1) << name;
}

// mpirun (pid 10, no rank) and its two ranks (pids 11 and 12), a CPU counter
// of the machine, and each process's events.
void write_launcher_report(const std::string &path) {
  ReportWriter writer;
  Header header = sample_header();
  header.rank = "";
  header.pids = {10};
  writer.open(path, header, true);
  const std::string_view strings[] = {"mpirun",   "./app (rank 0)", "./app (rank 1)", "main",
                                      "MPI_Send", "bytes",          "CPU 0",          "poll"};
  writer.add_strings(1, strings);
  const std::vector<TrackRecord> tracks = {
      {1, PROF_TRACK_PROCESS, 0, "mpirun", 10, 0, -1, "", PROF_CLOCK_SESSION},
      {2, PROF_TRACK_THREAD, 1, "mpirun", 10, 10, -1, "", PROF_CLOCK_SESSION},
      {3, PROF_TRACK_PROCESS, 0, "mpirun", 11, 0, -1, "", PROF_CLOCK_SESSION},
      {4, PROF_TRACK_THREAD, 3, "main", 11, 11, -1, "", PROF_CLOCK_SESSION},
      {5, PROF_TRACK_PROCESS, 0, "./app (rank 1)", 12, 0, -1, "", PROF_CLOCK_SESSION},
      {6, PROF_TRACK_THREAD, 5, "main", 12, 12, -1, "", PROF_CLOCK_SESSION},
      {7, PROF_TRACK_COUNTER, 0, "CPU 0", 0, 0, 0, "%", PROF_CLOCK_SESSION}};
  writer.add_tracks(tracks);
  // Process 11 was named before its exec and renamed after it: the last wins.
  const std::vector<TrackRecord> renamed = {
      {3, PROF_TRACK_PROCESS, 0, "./app (rank 0)", 11, 0, -1, "", PROF_CLOCK_SESSION}};
  writer.add_tracks(renamed);
  const std::vector<ArgsRecord> sets = {{1, {prof_arg{6, PROF_ARG_UINT, {.u = 4096}}}},
                                        {2, {prof_arg{6, PROF_ARG_UINT, {.u = 8192}}}}};
  writer.add_args(sets);
  std::vector<prof_event> events = {slice(2, 100, 50, 8), slice(4, 110, 10, 5),
                                    slice(6, 120, 10, 5), counter(7, 130, 42.0),
                                    slice(4, 140, 10, 5)};
  events[1].args = 1;
  events[2].args = 2;
  events[4].args = 1;
  writer.add_events(events.data(), events.size());
  const std::vector<DropRecord> drops = {{0, 11, 7}, {1, 12, 3}, {2, 10, 1}};
  writer.add_drops(drops);
  writer.finish({200, 5, 11, 0, false, 0});
}

struct Read {
  Header header;
  std::set<std::string> tracks;
  std::vector<prof_event> events;
  std::set<uint32_t> args;
  uint64_t dropped = 0;
};

Read read(const std::string &path) {
  ReportReader reader;
  EXPECT_TRUE(reader.open(path)) << path;
  Read out{reader.header(), {}, reader.read_all_events(), {}, reader.total_dropped()};
  for (const auto &[id, track] : reader.tracks())
    out.tracks.insert(track.name);
  for (const auto &[id, set] : reader.args())
    out.args.insert(id);
  EXPECT_TRUE(reader.complete()) << path;
  return out;
}

TEST(ReportSplit, EachRankGetsItsProcessesAndTheLauncherTheRest) {
  ScratchDir dir("prof-split");
  const std::string input = dir.file("r.profrep");
  write_launcher_report(input);
  const auto outputs = split_by_rank(
      input,
      [&](int rank) {
        return dir.file(rank < 0 ? "r.profrep" : "r" + std::to_string(rank) + ".profrep");
      },
      false);
  ASSERT_EQ(outputs.size(), 3u);
  EXPECT_EQ(outputs[0].group, -1);
  EXPECT_EQ(outputs[0].path, input); // the launcher's part replaces the whole
  EXPECT_EQ(outputs[1].group, 0);
  EXPECT_EQ(outputs[2].group, 1);

  const Read launcher = read(input);
  EXPECT_EQ(launcher.tracks, (std::set<std::string>{"mpirun", "CPU 0"}));
  ASSERT_EQ(launcher.events.size(), 2u); // its poll and the machine's counter
  EXPECT_EQ(launcher.dropped, 1u);
  EXPECT_EQ(launcher.header.rank, "");

  const Read rank0 = read(dir.file("r0.profrep"));
  EXPECT_EQ(rank0.tracks, (std::set<std::string>{"./app (rank 0)", "main", "CPU 0"}));
  ASSERT_EQ(rank0.events.size(), 3u); // two sends and the counter
  EXPECT_EQ(rank0.args, (std::set<uint32_t>{1}));
  EXPECT_EQ(rank0.dropped, 7u);
  EXPECT_EQ(rank0.header.rank, "0");
  EXPECT_EQ(rank0.header.pids, (std::vector<int32_t>{11}));
  EXPECT_EQ(outputs[1].events, 3u);

  const Read rank1 = read(dir.file("r1.profrep"));
  ASSERT_EQ(rank1.events.size(), 2u);
  EXPECT_EQ(rank1.args, (std::set<uint32_t>{2}));
  EXPECT_EQ(rank1.dropped, 3u);
  EXPECT_EQ(rank1.header.rank, "1");
}

// Attached processes: a report per process, none for the rest when every
// process has one, each header as the caller describes it.
TEST(ReportSplit, ByProcessWritesOneReportPerProcessAndNoRest) {
  ScratchDir dir("prof-split");
  const std::string input = dir.file("all.profrep");
  write_launcher_report(input);
  const auto outputs = split_report(
      input, [](const TrackRecord &process) { return process.pid - 10; },
      [&](int group) { return dir.file("p" + std::to_string(group) + ".profrep"); },
      [](int group, Header &header) { header.world_size = std::to_string(group + 5); }, false,
      false);
  ASSERT_EQ(outputs.size(), 3u);
  EXPECT_EQ(outputs[0].group, 0);
  EXPECT_TRUE(std::filesystem::exists(input)) << "the input stays when nothing replaces it";
  const Read first = read(dir.file("p0.profrep"));
  EXPECT_EQ(first.tracks, (std::set<std::string>{"mpirun", "CPU 0"}));
  EXPECT_EQ(first.dropped, 1u);
  EXPECT_EQ(first.header.world_size, "5");
  EXPECT_EQ(first.header.pids, (std::vector<int32_t>{10}));
  const Read third = read(dir.file("p2.profrep"));
  EXPECT_EQ(third.events.size(), 2u);
  EXPECT_EQ(third.header.pids, (std::vector<int32_t>{12}));
  EXPECT_EQ(third.header.world_size, "7");
}

// --capture-steps: each process's report holds its own steps' time, the
// machine's tracks of that time too, and ends with it.
TEST(ReportSplit, AGroupWithASpanKeepsOnlyItsTime) {
  ScratchDir dir("prof-split");
  const std::string input = dir.file("all.profrep");
  write_launcher_report(input);
  const auto outputs = split_report(
      input, [](const TrackRecord &process) { return process.pid - 11; },
      [&](int group) { return dir.file("p" + std::to_string(group) + ".profrep"); },
      [](int, Header &) {}, false, false, GroupSpans{{0, {115, 150}}, {1, {100, 125}}});
  ASSERT_EQ(outputs.size(), 3u) << "mpirun's drops make a report of the rest";
  const Read first = read(dir.file("p0.profrep"));
  // Its slice at 110 is before its span; the counter (130) and its slice at 140 are in it.
  ASSERT_EQ(first.events.size(), 2u);
  EXPECT_EQ(first.events[0].ts, 130u);
  EXPECT_EQ(first.events[1].ts, 140u);
  const Read second = read(dir.file("p1.profrep"));
  ASSERT_EQ(second.events.size(), 1u) << "the counter at 130 is after its span";
  EXPECT_EQ(second.events[0].ts, 120u);
  ReportReader reader;
  ASSERT_TRUE(reader.open(dir.file("p1.profrep")));
  ASSERT_TRUE(reader.footer().has_value());
  EXPECT_EQ(reader.footer()->end_ns, 125u);
}

TEST(ReportSplit, NoRankWritesNothingAndAnExistingReportIsKept) {
  ScratchDir dir("prof-split");
  const std::string whole = dir.file("whole.profrep");
  write_sample_report(whole);
  EXPECT_TRUE(split_by_rank(
                  whole, [&](int) { return dir.file("x.profrep"); }, false)
                  .empty());
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.profrep")));

  const std::string input = dir.file("r.profrep");
  write_launcher_report(input);
  write_sample_report(dir.file("r1.profrep"));
  const auto path_for = [&](int rank) {
    return dir.file(rank < 0 ? "r.profrep" : "r" + std::to_string(rank) + ".profrep");
  };
  EXPECT_THROW(split_by_rank(input, path_for, false), ReportError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("r0.profrep"))) << "nothing written";
  EXPECT_EQ(read(input).events.size(), 5u) << "the input is whole";
  EXPECT_EQ(split_by_rank(input, path_for, true).size(), 3u);
  EXPECT_THROW(split_by_rank(dir.file("none.profrep"), path_for, true), ReportError);
}

} // namespace
} // namespace prof::report
