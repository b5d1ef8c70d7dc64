// A real capture through Perfetto's format and back: what prof exports with
// `prof export -t perfetto` and reads with `prof import` is the report it
// was, as `prof stats` shows it and event by event; damaged traces are
// refused with one line, exit 2 and nothing written.
#include "core/report/report_reader.hpp"
#include "prof/event.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// A report's events as text that does not depend on its ids, counted.
struct Contents {
  std::map<std::string, int> slices, instants, counters, samples, flows;
  std::set<std::tuple<std::string, int, int, int, std::string>> tracks; ///< of events
  uint64_t events = 0;
};

std::string args_text(const report::ReportReader &reader, uint64_t args) {
  std::string text;
  if (const auto set = reader.args().find(static_cast<uint32_t>(args)))
    for (const prof_arg &a : *set)
      text += std::string(reader.string(a.key)) + "=" +
              prof::arg_text(a, [&](prof_string_id s) { return reader.string(s); }) + ";";
  return text;
}

Contents contents_of(const std::string &path) {
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(path)) << path;
  Contents c;
  for (const prof_event &e : reader.read_all_events()) {
    ++c.events;
    const report::TrackRecord *track = reader.track(e.track);
    const std::string where = track ? track->name : "?";
    if (track) c.tracks.insert({track->name, track->kind, track->pid, track->tid, track->unit});
    const std::string at = where + " @" + std::to_string(e.ts);
    switch (e.type) {
    case PROF_EVENT_SLICE:
      ++c.slices[at + " " + std::string(reader.string(e.name)) + " [" +
                 std::string(reader.string(e.category)) + "/" + std::to_string(e.kind) + "] " +
                 std::to_string(e.duration) + "ns id " + std::to_string(e.id) + " " +
                 args_text(reader, e.args)];
      break;
    case PROF_EVENT_INSTANT:
      ++c.instants[at + " " + std::string(reader.string(e.name)) + " [" +
                   std::string(reader.string(e.category)) + "/" + std::to_string(e.kind) + "] " +
                   args_text(reader, e.args)];
      break;
    case PROF_EVENT_COUNTER:
      ++c.counters[at + " " + std::to_string(e.value)];
      break;
    case PROF_EVENT_SAMPLE: {
      std::string frames;
      if (const report::StackRecord *stack = reader.stack(static_cast<uint32_t>(e.id)))
        for (const uint32_t f : stack->frames)
          frames += std::string(reader.string(f)) + ";";
      ++c.samples[at + " " + std::string(reader.string(e.category)) + " " + frames];
      break;
    }
    case PROF_EVENT_FLOW:
      ++c.flows[at + " " + std::to_string(e.id) + " phase " + std::to_string(e.flags)];
      break;
    default:
      break;
    }
  }
  return c;
}

std::string file_text(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The same CSV tables, numbers equal up to the last digits of a sum of
/// doubles (the imported report may hold a counter's values in another
/// order, and its average is summed in that order).
void expect_same_stats(const std::string &before, const std::string &after) {
  const std::vector<std::string> a = split_lines(before), b = split_lines(after);
  ASSERT_EQ(a.size(), b.size()) << before << "\n---\n" << after;
  const auto fields = [](const std::string &line) {
    std::vector<std::string> out(1);
    for (const char c : line) {
      if (c == ',')
        out.emplace_back();
      else
        out.back().push_back(c);
    }
    return out;
  };
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    const auto x = fields(a[i]), y = fields(b[i]);
    ASSERT_EQ(x.size(), y.size()) << a[i] << " | " << b[i];
    for (size_t f = 0; f < x.size(); ++f) {
      if (x[f] == y[f]) continue;
      char *end_x = nullptr, *end_y = nullptr;
      const double u = std::strtod(x[f].c_str(), &end_x), v = std::strtod(y[f].c_str(), &end_y);
      EXPECT_TRUE(*end_x == '\0' && *end_y == '\0' && std::fabs(u - v) <= 1e-9 * std::fabs(u))
          << a[i] << " | " << b[i];
    }
  }
}

class PerfettoRoundTrip : public ::testing::Test {
protected:
  RunResult prof(std::vector<std::string> args) {
    args.insert(args.begin(), kProf);
    return run_process(args, dir_, 120s);
  }
  testing::ScratchDir scratch_{"prof-perfetto-e2e", testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(PerfettoRoundTrip, AnExportedCaptureImportsAsTheReportItWas) {
  const RunResult captured =
      prof({"-t", "osrt", "--cpu-profiling-callstack", "--cpu-utilization", "--export-profile",
            "capture.profrep", kWorkload, "--threads", "2", "--seconds", "0.3", "--lock-wait-ms",
            "20", "--children", "1", "--quiet"});
  ASSERT_EQ(captured.exit_code, 0) << captured.describe();
  const RunResult exported = prof({"export", "-t", "perfetto", "capture.profrep"});
  ASSERT_EQ(exported.exit_code, 0) << exported.describe();
  ASSERT_TRUE(fs::exists(dir_ / "capture.perfetto-trace")) << exported.describe();
  const RunResult imported = prof({"import", "-o", "imported.profrep", "capture.perfetto-trace"});
  ASSERT_EQ(imported.exit_code, 0) << imported.describe();
  EXPECT_EQ(imported.out, "Generated: " + (dir_ / "imported.profrep").string() + "\n");
  EXPECT_EQ(imported.err, "") << "a trace prof wrote imports without warnings";

  // prof stats says the same of both: slice names, counts and times, the
  // counters, the CPU functions.
  const RunResult before = prof({"stats", "--format", "csv", "capture.profrep"});
  const RunResult after = prof({"stats", "--format", "csv", "imported.profrep"});
  ASSERT_EQ(before.exit_code, 0) << before.describe();
  ASSERT_EQ(after.exit_code, 0) << after.describe();
  EXPECT_NE(before.out.find("pthread_mutex_lock"), std::string::npos) << before.out;
  expect_same_stats(before.out, after.out);

  // Event by event, on tracks of the same names and kinds.
  const Contents original = contents_of((dir_ / "capture.profrep").string());
  const Contents back = contents_of((dir_ / "imported.profrep").string());
  EXPECT_GT(original.slices.size(), 5u);
  EXPECT_FALSE(original.counters.empty());
  EXPECT_EQ(back.slices, original.slices);
  EXPECT_EQ(back.instants, original.instants);
  EXPECT_EQ(back.counters, original.counters);
  EXPECT_EQ(back.flows, original.flows);
  EXPECT_EQ(back.tracks, original.tracks);
  // CPU samples come back; osrt's blocking-call stacks are no CPU samples
  // and Perfetto's format has no place for them.
  std::map<std::string, int> cpu_samples;
  for (const auto &[sample, count] : original.samples)
    if (sample.find(" osrt ") == std::string::npos) cpu_samples[sample] = count;
  EXPECT_EQ(back.samples, cpu_samples);

  // The capture's facts: its processes and its wall clock.
  report::ReportReader first, second;
  ASSERT_TRUE(first.open((dir_ / "capture.profrep").string()));
  ASSERT_TRUE(second.open((dir_ / "imported.profrep").string()));
  EXPECT_EQ(second.header().pids, first.header().pids);
  const auto wall = [](const report::Header &h, uint64_t at) {
    return h.clock_anchor.realtime_ns + at - h.clock_anchor.monotonic_ns;
  };
  const uint64_t at = second.header().session_start_ns;
  EXPECT_EQ(wall(second.header(), at), wall(first.header(), at));
}

TEST_F(PerfettoRoundTrip, DamagedTracesAreRefusedWithOneLine) {
  const RunResult captured = prof({"-t", "osrt", "--export-profile", "capture.profrep", kWorkload,
                                   "--seconds", "0.05", "--quiet"});
  ASSERT_EQ(captured.exit_code, 0) << captured.describe();
  ASSERT_EQ(prof({"export", "-t", "perfetto", "capture.profrep"}).exit_code, 0);
  const std::string trace = file_text(dir_ / "capture.perfetto-trace");
  ASSERT_GT(trace.size(), 16u);

  // A packet whose content is damaged: its track descriptor's length runs
  // past the packet.
  std::string damaged = trace;
  damaged[0] = 0x0a;
  damaged[1] = 4;
  damaged[2] = static_cast<char>(0xe2); // field 60, length-delimited: a two-byte tag
  damaged[3] = 0x03;
  damaged[4] = 9; // 9 bytes, in a packet of 4
  std::ofstream(dir_ / "damaged.perfetto-trace", std::ios::binary) << damaged;
  RunResult r = prof({"import", "damaged.perfetto-trace"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(r.err, "prof: import damaged.perfetto-trace: expected 9 bytes of field 60, found 1 "
                   "before the end of the data at offset 5\n");
  EXPECT_EQ(r.out, "");

  // Another file forced through the perfetto importer.
  std::ofstream(dir_ / "notes.txt") << "plain text\n";
  r = prof({"import", "--importer", "perfetto", "notes.txt"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(r.err, "prof: import notes.txt: expected a TracePacket (Trace.packet, field 1, "
                   "length-delimited: byte 0x0a), found byte 0x70 ('p') at offset 0\n");
  // Nothing written, not even a temporary file.
  std::set<std::string> files;
  for (const auto &entry : fs::directory_iterator(dir_))
    files.insert(entry.path().filename().string());
  EXPECT_EQ(files, (std::set<std::string>{"capture.profrep", "capture.perfetto-trace",
                                          "damaged.perfetto-trace", "notes.txt"}));
}

} // namespace
} // namespace prof::e2e
