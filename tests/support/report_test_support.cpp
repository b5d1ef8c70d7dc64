#include "tests/support/report_test_support.hpp"

#include "core/report/chunk_scanner.hpp"
#include "core/report/event_columns.hpp"
#include "core/report/payload_compression.hpp"
#include "core/report/report_writer.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace prof::report::testing {

std::vector<uint8_t> read_bytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string &path, const std::vector<uint8_t> &bytes) {
  // Rewriting a truncated file makes ext4 flush it on close (auto_da_alloc): a new file is much
  // faster.
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

bool same_events(const std::vector<prof_event> &a, const std::vector<prof_event> &b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(prof_event)) == 0);
}

Header sample_header() {
  Header h;
  h.session_name = "nightly";
  h.argv = {"./train", "--epochs", "3", ""};
  h.command_display = "./train --epochs 3 ''";
  h.pids = {4242, -1, 0, std::numeric_limits<int32_t>::max()};
  h.host_name = "node-07";
  h.plugins = {{"cpu-util", "1.0.0", {{"frequency", "100"}, {"per-core", "true"}}},
               {"console", "0.1", {}}};
  h.clock_anchor = {1'700'000'000'123'456'789ull, 987'654'321ull};
  h.session_start_ns = 987'000'000ull;
  h.rank = "3";
  h.world_size = "8";
  return h;
}

std::vector<TrackRecord> sample_tracks() {
  TrackRecord process{1, PROF_TRACK_PROCESS, 0, "train", 4242, 0, -1, "", PROF_CLOCK_SESSION};
  TrackRecord thread{2, PROF_TRACK_THREAD, 1, "main", 4242, 4243, -1, "", PROF_CLOCK_SESSION};
  TrackRecord util{3, PROF_TRACK_COUNTER, 1, "cpu", 0, 0, 5, "%", PROF_CLOCK_TSC};
  return {process, thread, util};
}

std::vector<ChunkSpan> chunk_spans(const std::string &path) {
  const auto bytes = read_bytes(path);
  ChunkScanner scanner(bytes);
  std::vector<ChunkSpan> spans;
  while (auto chunk = scanner.next()) {
    uint64_t events = 0;
    if (chunk->type == static_cast<uint16_t>(ChunkType::events)) {
      std::vector<uint8_t> plain;
      if (chunk->flags == kChunkZstd && decompress_payload(chunk->payload, plain))
        peek_event_count(plain, events);
      else
        peek_event_count(chunk->payload, events);
    }
    spans.push_back({chunk->offset, chunk->end(), chunk->type, events});
  }
  return spans;
}

SampleReport write_sample_report(const std::string &path) {
  SampleReport report{path, {}, {}};
  for (uint32_t i = 0; i < 50; ++i) {
    const uint64_t ts = 1000 + 10 * i;
    switch (i % 5) {
    case 0:
      report.events.push_back(slice(2, ts, 5 + i, 1 + i % 4, 2, 100 + i));
      break;
    case 1:
      report.events.push_back(instant(2, ts, 3, 0));
      break;
    case 2:
      report.events.push_back(counter(3, ts, 0.5 * i));
      break;
    case 3:
      report.events.push_back(sample(2, ts, 7));
      break;
    default:
      report.events.push_back(flow(2, ts, i, PROF_FLOW_STEP));
      break;
    }
  }
  ReportWriter writer(WriterOptions{20});
  writer.open(path, sample_header(), true);
  const std::string_view strings[] = {"matmul", "kernel", "sync", "main"};
  writer.add_strings(1, strings);
  const auto tracks = sample_tracks();
  writer.add_tracks(tracks);
  writer.add_events(report.events.data(), report.events.size());
  const StackRecord stacks[] = {{7, {1, 4}}};
  writer.add_stacks(stacks);
  const ClockDomainRecord clocks[] = {{PROF_CLOCK_TSC, "tsc", 3.0e9, {{0, 100}, {3000, 1100}}}};
  writer.add_clock_domains(clocks);
  const DropRecord drops[] = {{0, 4243, 12}};
  writer.add_drops(drops);
  writer.finish(Footer{5000, 0, 12, 0, false, 0});
  report.chunks = chunk_spans(path);
  return report;
}

} // namespace prof::report::testing
