// Writes the seed reports of the report fuzz target with prof's own
// ReportWriter: every chunk type, events of every type with and without
// compression, a cut file and one with an unknown chunk type. The format-1
// seed is tests/fixtures/report/format-1.profrep. Run by hand when the
// format changes:  build-fuzz/bin/make_report_seeds tests/fuzz/corpus/report
#include "core/report/report_writer.hpp"

#include <prof/testing/test_events.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace prof::report;
using namespace prof::testing;

Header seed_header() {
  Header h;
  h.session_name = "seed";
  h.argv = {"./train", "--epochs", "1"};
  h.command_display = "./train --epochs 1";
  h.pids = {4242};
  h.host_name = "node-0";
  h.plugins = {{"cpu-util", "1.0.0", {{"frequency", "100"}}}};
  h.clock_anchor = {1'700'000'000'000'000'000ull, 1'000'000ull};
  h.session_start_ns = 1'000'000ull;
  h.rank = "0";
  return h;
}

std::vector<prof_event> seed_events(size_t count) {
  std::vector<prof_event> events;
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t ts = 1000 + 10 * i;
    switch (i % 5) {
    case 0: {
      prof_event e = slice(2, ts, 5 + i, 1 + i % 3, 2, 100 + i);
      e.args = i % 10 == 0 ? 1 : 0;
      events.push_back(e);
      break;
    }
    case 1:
      events.push_back(instant(2, ts, 3, 0));
      break;
    case 2:
      events.push_back(counter(3, ts, 0.5 * i));
      break;
    case 3:
      events.push_back(sample(2, ts, 7));
      break;
    default:
      events.push_back(flow(2, ts, i, PROF_FLOW_STEP));
      break;
    }
  }
  return events;
}

// A whole report; `events_per_chunk` and `compress` shape its EVENTS chunks.
void write_seed(const std::string &path, size_t events, size_t events_per_chunk, bool compress,
                bool finish) {
  ReportWriter writer(WriterOptions{events_per_chunk, compress});
  writer.open(path, seed_header(), true);
  const std::string_view strings[] = {"matmul", "kernel", "sync", "main", "bytes"};
  writer.add_strings(1, strings);
  const TrackRecord tracks[] = {
      {1, PROF_TRACK_PROCESS, 0, "train", 4242, 0, -1, "", PROF_CLOCK_SESSION},
      {2, PROF_TRACK_THREAD, 1, "main", 4242, 4243, -1, "", PROF_CLOCK_SESSION},
      {3, PROF_TRACK_COUNTER, 1, "cpu", 0, 0, 5, "%", PROF_CLOCK_TSC}};
  writer.add_tracks(tracks);
  prof_arg arg{};
  arg.key = 5;
  arg.type = PROF_ARG_UINT;
  arg.value.u = 4096;
  const ArgsRecord args[] = {{1, {arg}}};
  writer.add_args(args);
  const auto all = seed_events(events);
  writer.add_events(all.data(), all.size());
  const StackRecord stacks[] = {{7, {1, 4}}};
  writer.add_stacks(stacks);
  const ClockDomainRecord clocks[] = {{PROF_CLOCK_TSC, "tsc", 3.0e9, {{0, 100}, {3000, 1100}}}};
  writer.add_clock_domains(clocks);
  const DropRecord drops[] = {{0, 4243, 12}, {kInvalidEventsRing, 0, 3}};
  writer.add_drops(drops);
  const uint8_t future[] = {1, 2, 3, 4};
  writer.add_raw_chunk(42, 0, future); // a later format's chunk
  if (finish) writer.finish(Footer{5000, 0, 12, 0, false, 0});
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_report_seeds DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  write_seed(dir / "every-chunk.profrep", 40, 16, false, true);
  write_seed(dir / "compressed.profrep", 120, 120, true, true);
  write_seed(dir / "unfinished.profrep", 10, 16, false, false);
  std::filesystem::copy_file(PROF_SOURCE_DIR "/tests/fixtures/report/format-1.profrep",
                             dir / "format-1.profrep",
                             std::filesystem::copy_options::overwrite_existing);
  // Cut inside its last chunk.
  const auto whole = dir / "every-chunk.profrep";
  std::filesystem::copy_file(whole, dir / "cut.profrep",
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::resize_file(dir / "cut.profrep", std::filesystem::file_size(whole) - 7);
  return 0;
}
