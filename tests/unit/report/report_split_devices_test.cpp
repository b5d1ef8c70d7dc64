// Device work in a split by process: each process's streams (tracks it owns,
// prof_track_desc::pid) go to its own report only; the device's shared
// tracks go to every report, marked PROF_TRACK_SHARED, and a merge of the
// reports keeps them once, so that it counts every slice once.
#include "core/report/report_merge.hpp"
#include "core/report/report_reader.hpp"
#include "core/report/report_split.hpp"
#include "core/report/report_writer.hpp"
#include "tests/support/report_test_support.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace prof::report {
namespace {

using namespace prof::report::testing;

constexpr uint32_t kKernel = 3; // the string id of "conv"

// Two processes (pids 21 and 22) on one device: its track and utilization
// shared, a stream of each process's (3 kernels of 21's, 2 of 22's), a
// counter 22 owns, and an engine row of a plugin before ABI 1.10 (no owner,
// not marked).
void write_device_report(const std::string &path, uint64_t anchor = 0) {
  ReportWriter writer;
  Header header = sample_header();
  header.rank = "";
  header.pids = {21, 22};
  if (anchor != 0) header.clock_anchor.realtime_ns = anchor;
  writer.open(path, header, true);
  const std::string_view strings[] = {
      "app", "main", "conv", "GCU 0", "General stream 1", "utilization", "records", "old engine"};
  writer.add_strings(1, strings);
  const std::vector<TrackRecord> tracks = {
      {1, PROF_TRACK_PROCESS, 0, "app", 21, 0, -1, "", PROF_CLOCK_SESSION},
      {2, PROF_TRACK_THREAD, 1, "main", 21, 21, -1, "", PROF_CLOCK_SESSION},
      {3, PROF_TRACK_PROCESS, 0, "app", 22, 0, -1, "", PROF_CLOCK_SESSION},
      {4, PROF_TRACK_THREAD, 3, "main", 22, 22, -1, "", PROF_CLOCK_SESSION},
      {5, PROF_TRACK_DEVICE, 0, "GCU 0", 0, 0, 0, "", PROF_CLOCK_SESSION, PROF_TRACK_SHARED},
      {6, PROF_TRACK_ENGINE, 5, "General stream 1", 21, 0, 1, "", PROF_CLOCK_SESSION},
      {7, PROF_TRACK_ENGINE, 5, "General stream 1", 22, 0, 1, "", PROF_CLOCK_SESSION},
      {8, PROF_TRACK_COUNTER, 5, "utilization", 0, 0, -1, "%", PROF_CLOCK_SESSION,
       PROF_TRACK_SHARED},
      {9, PROF_TRACK_COUNTER, 5, "records", 22, 0, -1, "records", PROF_CLOCK_SESSION},
      {10, PROF_TRACK_ENGINE, 5, "old engine", 0, 0, 2, "", PROF_CLOCK_SESSION}};
  writer.add_tracks(tracks);
  std::vector<prof_event> events = {
      slice(2, 100, 10, 2),      slice(4, 101, 10, 2),  slice(6, 110, 5, kKernel),
      slice(7, 111, 5, kKernel), counter(8, 112, 40.0), slice(6, 120, 5, kKernel),
      slice(7, 121, 5, kKernel), counter(8, 122, 60.0), slice(6, 130, 5, kKernel),
      counter(9, 131, 2.0),      slice(10, 132, 3, 8)};
  for (prof_event &e : events)
    if (e.type == PROF_EVENT_SLICE && e.name == kKernel) e.kind = PROF_CATEGORY_KERNEL;
  writer.add_events(events.data(), events.size());
  writer.finish({200, 0, 0, 0, false, 0});
}

struct Part {
  std::map<std::string, int> tracks;  // name -> how many
  std::map<uint32_t, uint32_t> flags; // id -> flags
  std::vector<prof_event> events;
  int kernels = 0;
  int counters = 0;
};

Part read_part(const std::string &path) {
  ReportReader reader;
  EXPECT_TRUE(reader.open(path)) << path;
  Part part;
  for (const auto &[id, track] : reader.tracks()) {
    ++part.tracks[track.name];
    part.flags[id] = track.flags;
  }
  part.events = reader.read_all_events();
  for (const prof_event &e : part.events) {
    part.kernels += e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_KERNEL;
    part.counters += e.type == PROF_EVENT_COUNTER;
  }
  return part;
}

std::vector<SplitOutput> split_by_pid(const std::string &input, const ScratchDir &dir,
                                      const std::string &prefix) {
  return split_report(
      input, [](const TrackRecord &process) { return process.pid - 21; },
      [&](int group) { return dir.file(prefix + std::to_string(group) + ".profrep"); },
      [](int, Header &) {}, false, false);
}

TEST(TrackFlags, ARoundTripKeepsThemAndARenameToo) {
  ScratchDir dir("prof-split-devices");
  const std::string path = dir.file("d.profrep");
  write_device_report(path);
  const Part part = read_part(path);
  EXPECT_EQ(part.flags.at(5), PROF_TRACK_SHARED);
  EXPECT_EQ(part.flags.at(8), PROF_TRACK_SHARED);
  EXPECT_EQ(part.flags.at(6), 0u);
  EXPECT_EQ(part.flags.at(10), 0u);
}

TEST(ReportSplitDevices, EachProcessKeepsItsOwnStreamsAndEveryOneTheSharedTracks) {
  ScratchDir dir("prof-split-devices");
  const std::string input = dir.file("all.profrep");
  write_device_report(input);
  ASSERT_EQ(split_by_pid(input, dir, "p").size(), 2u);

  const Part first = read_part(dir.file("p0.profrep"));
  EXPECT_EQ(first.kernels, 3) << "process 21's kernels, none of 22's";
  EXPECT_EQ(first.tracks.at("General stream 1"), 1);
  EXPECT_FALSE(first.tracks.contains("records")) << "22's counter";
  EXPECT_EQ(first.counters, 2) << "the device's utilization";
  const Part second = read_part(dir.file("p1.profrep"));
  EXPECT_EQ(second.kernels, 2);
  EXPECT_EQ(second.counters, 3) << "the utilization and its own counter";

  // What no process owns is in both, marked shared; what one owns is not.
  for (const Part *part : {&first, &second}) {
    EXPECT_EQ(part->flags.at(5), PROF_TRACK_SHARED);
    EXPECT_EQ(part->flags.at(8), PROF_TRACK_SHARED);
    EXPECT_EQ(part->flags.at(10), PROF_TRACK_SHARED) << "a track of no owner is shared";
  }
  EXPECT_EQ(first.flags.at(6), 0u);
  EXPECT_EQ(second.flags.at(7), 0u);
}

TEST(ReportSplitDevices, AMergeOfThePartsEqualsTheWhole) {
  ScratchDir dir("prof-split-devices");
  const std::string input = dir.file("all.profrep");
  write_device_report(input);
  ASSERT_EQ(split_by_pid(input, dir, "p").size(), 2u);
  const std::string merged = dir.file("merged.profrep");
  write_merge(plan_merge({dir.file("p0.profrep"), dir.file("p1.profrep")}), merged, false);

  const Part whole = read_part(input);
  const Part sum = read_part(merged);
  EXPECT_EQ(sum.kernels, whole.kernels);
  EXPECT_EQ(sum.counters, whole.counters) << "the shared utilization once";
  EXPECT_EQ(sum.events.size(), whole.events.size());
  const auto count = [](const Part &part) {
    int tracks = 0;
    for (const auto &[name, n] : part.tracks)
      tracks += n;
    return tracks;
  };
  EXPECT_EQ(count(sum), count(whole)) << "one GCU 0, one utilization";
  EXPECT_EQ(sum.tracks.at("General stream 1"), 2);
}

// Parts with spans (--capture-steps): the shared events of overlapping spans once.
TEST(ReportSplitDevices, PartsWithOverlappingSpansMergeTheSharedEventsOnce) {
  ScratchDir dir("prof-split-devices");
  const std::string input = dir.file("all.profrep");
  write_device_report(input);
  ASSERT_EQ(split_report(
                input, [](const TrackRecord &process) { return process.pid - 21; },
                [&](int group) { return dir.file("s" + std::to_string(group) + ".profrep"); },
                [](int, Header &) {}, false, false, GroupSpans{{0, {100, 125}}, {1, {115, 200}}})
                .size(),
            2u);
  EXPECT_EQ(read_part(dir.file("s0.profrep")).counters, 2);
  EXPECT_EQ(read_part(dir.file("s1.profrep")).counters, 2); // 122 and its own 131
  const std::string merged = dir.file("merged.profrep");
  write_merge(plan_merge({dir.file("s0.profrep"), dir.file("s1.profrep")}), merged, false);
  const Part sum = read_part(merged);
  EXPECT_EQ(sum.counters, 3) << "112 and 122 of the utilization once, 131 of 22's";
}

// Reports of two captures each keep their device: nothing of one is the other's.
TEST(ReportSplitDevices, SharedTracksOfTwoCapturesStayApart) {
  ScratchDir dir("prof-split-devices");
  write_device_report(dir.file("a.profrep"), 1'700'000'000'000'000'000ull);
  write_device_report(dir.file("b.profrep"), 1'700'000'100'000'000'000ull);
  ASSERT_EQ(split_by_pid(dir.file("a.profrep"), dir, "a").size(), 2u);
  ASSERT_EQ(split_by_pid(dir.file("b.profrep"), dir, "b").size(), 2u);
  const std::string merged = dir.file("merged.profrep");
  write_merge(plan_merge({dir.file("a0.profrep"), dir.file("b0.profrep")}), merged, false);
  const Part sum = read_part(merged);
  EXPECT_EQ(sum.kernels, 6);
  EXPECT_EQ(sum.counters, 4) << "each capture's utilization";
}

} // namespace
} // namespace prof::report
