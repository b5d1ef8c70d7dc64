// Fuzzes ReportReader on whole files: every chunk type, format 1 and 2
// reports, cut and damaged ones. The custom mutator rewrites the checksum of
// most chunks it can frame, so mutations reach the payload decoders instead
// of stopping at a checksum mismatch; an input is read exactly as given.
#include "core/report/chunk.hpp"
#include "core/report/report_reader.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

namespace {

using namespace prof::report;

// Gives every chunk whose header and payload lie inside `data` its checksum.
void fix_checksums(uint8_t *data, size_t size) {
  size_t at = 0;
  while (at + kChunkHeaderSize <= size) {
    ChunkHeader h = load_chunk_header(data + at);
    if (h.magic != kChunkMagic || h.length > size - at - kChunkHeaderSize) {
      ++at;
      continue;
    }
    const std::span<const uint8_t> pieces[] = {{data + at + kChunkHeaderSize, h.length}};
    h.crc = chunk_crc(h.type, h.flags, h.length, pieces);
    store_chunk_header(h, data + at);
    at += kChunkHeaderSize + h.length;
  }
}

// The input as a file ReportReader can open by path, without touching disk.
std::string write_input(const uint8_t *data, size_t size) {
  static const int fd = memfd_create("report-fuzz", 0);
  if (fd < 0 || ftruncate(fd, 0) != 0) std::abort();
  for (size_t done = 0; done < size;) {
    const ssize_t n = pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (n <= 0) std::abort();
    done += static_cast<size_t>(n);
  }
  return "/proc/self/fd/" + std::to_string(fd);
}

// Reads everything the reader offers, as prof's commands do.
void read_report(const std::string &path, bool check_events) {
  ReportReader reader;
  if (!reader.open(path, ReadOptions{check_events})) return;
  size_t texts = reader.header().command_display.size() + reader.header().host_name.size();
  for (const auto &[id, track] : reader.tracks())
    texts += track.name.size() + track.unit.size();
  for (const auto &[id, stack] : reader.stacks())
    for (uint32_t frame : stack.frames)
      texts += reader.string(frame).size();
  (void)texts;
  for (int cause = 0; cause <= PROF_DROP_CAUSE_COUNT; ++cause) // one past: unknown
    (void)reader.dropped(static_cast<prof_drop_cause>(cause));
  uint64_t events = 0;
  reader.for_each_event_batch([&](const prof_event *, size_t count) { events += count; });
  // Chunks checked at open() decode again, whole.
  if (check_events && events != reader.event_count()) std::abort();
  std::vector<prof_event> batch;
  for (const auto &chunk : reader.event_chunks())
    if (!reader.decode_events(chunk, batch) && check_events) std::abort();
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                                          unsigned int seed) {
  size = LLVMFuzzerMutate(data, size, max_size);
  if (seed % 8 != 0) fix_checksums(data, size); // the rest stay damaged
  return size;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string path = write_input(data, size);
  read_report(path, true);
  read_report(path, false);
  return 0;
}
