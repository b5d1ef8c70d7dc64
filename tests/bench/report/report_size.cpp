// Bytes per slice of a report's EVENTS chunks (16-byte chunk headers
// included), as stored and as this build's writer stores the same events in
// the same chunks; the rewritten events are read back and compared.
// Usage: report_size REPORT.profrep [SCRATCH.profrep]
#include "core/report/chunk.hpp"
#include "core/report/report_reader.hpp"
#include "core/report/report_writer.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

using namespace prof::report;

namespace {

struct EventBytes {
  uint64_t chunks = 0;
  uint64_t bytes = 0;
  uint64_t compressed_chunks = 0;
};

EventBytes event_bytes(const ReportReader &reader) {
  EventBytes total;
  for (const auto &chunk : reader.event_chunks()) {
    ++total.chunks;
    total.bytes += kChunkHeaderSize + chunk.payload_size;
    total.compressed_chunks += chunk.flags != 0;
  }
  return total;
}

void print(const char *what, const EventBytes &b, uint64_t slices, uint64_t events) {
  std::printf("%-10s %6.3f bytes/slice  %6.3f bytes/event  (%llu bytes in %llu event chunks, %llu "
              "compressed)\n",
              what, double(b.bytes) / double(slices), double(b.bytes) / double(events),
              static_cast<unsigned long long>(b.bytes), static_cast<unsigned long long>(b.chunks),
              static_cast<unsigned long long>(b.compressed_chunks));
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: report_size REPORT.profrep [SCRATCH.profrep]\n");
    return 2;
  }
  ReportReader reader;
  if (!reader.open(argv[1])) {
    std::fprintf(stderr, "%s\n", reader.problems().back().c_str());
    return 2;
  }
  const std::string scratch =
      argc > 2 ? argv[2]
               : (std::filesystem::temp_directory_path() / "report_size.profrep").string();
  ReportWriter writer(WriterOptions{kMaxEventsPerChunk});
  writer.open(scratch, Header{}, true);
  uint64_t slices = 0;
  std::vector<prof_event> original;
  reader.for_each_event_batch([&](const prof_event *events, size_t count) {
    for (size_t i = 0; i < count; ++i)
      slices += events[i].type == PROF_EVENT_SLICE;
    original.insert(original.end(), events, events + count);
    writer.add_events(events, count);
    writer.flush(); // one chunk for each chunk read
  });
  writer.finish({});

  ReportReader rewritten;
  if (!rewritten.open(scratch)) {
    std::fprintf(stderr, "%s\n", rewritten.problems().back().c_str());
    return 1;
  }
  const auto again = rewritten.read_all_events();
  const bool same =
      again.size() == original.size() &&
      std::memcmp(again.data(), original.data(), original.size() * sizeof(prof_event)) == 0;
  if (argc <= 2) std::filesystem::remove(scratch);

  const uint64_t events = reader.event_count();
  std::printf("%llu slices, %llu events; whole file %.3f bytes/slice (format %u)\n",
              static_cast<unsigned long long>(slices), static_cast<unsigned long long>(events),
              double(reader.file_size()) / double(slices), reader.header().format_version);
  print("stored", event_bytes(reader), slices, events);
  print("rewritten", event_bytes(rewritten), slices, events);
  if (!same) {
    std::fprintf(stderr, "rewritten events differ from the stored ones\n");
    return 1;
  }
  return 0;
}
