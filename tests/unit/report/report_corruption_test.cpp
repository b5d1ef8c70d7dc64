// Damaged chunks are reported by offset and skipped; reading goes on after them.
#include "core/report/chunk.hpp"
#include "core/report/crc32c.hpp"
#include "core/report/record_codec.hpp"
#include "core/report/report_reader.hpp"
#include "core/report/report_writer.hpp"
#include "tests/support/report_test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <random>

namespace prof::report {
namespace {

using namespace prof::report::testing;

std::string damaged_line(const std::string &path, uint64_t offset, const std::string &reason,
                         std::optional<uint64_t> resumed_at) {
  return "report '" + path + "': chunk at offset " + std::to_string(offset) + " is corrupted (" +
         reason + "); " +
         (resumed_at ? "resumed at the next whole chunk at offset " + std::to_string(*resumed_at)
                     : std::string("no whole chunk follows it"));
}

/// The sample's events without those of the EVENTS chunk at `chunk_index`.
std::vector<prof_event> events_without_chunk(const SampleReport &sample, size_t chunk_index) {
  std::vector<prof_event> kept;
  size_t at = 0;
  for (size_t i = 0; i < sample.chunks.size(); ++i) {
    const auto n = static_cast<size_t>(sample.chunks[i].events);
    if (i != chunk_index)
      kept.insert(kept.end(), sample.events.begin() + at, sample.events.begin() + at + n);
    at += n;
  }
  return kept;
}

TEST(ReportCorruption, AFlippedPayloadByteIsReportedAndLaterChunksStillRead) {
  ScratchDir dir;
  const auto sample = write_sample_report(dir.file("whole.profrep"));
  const auto bytes = read_bytes(sample.path);
  const auto path = dir.file("damaged.profrep");

  for (size_t i = 0; i < sample.chunks.size(); ++i) {
    const auto &chunk = sample.chunks[i];
    SCOPED_TRACE("chunk " + std::to_string(i) + " at offset " + std::to_string(chunk.offset));
    auto damaged = bytes;
    damaged[(chunk.offset + kChunkHeaderSize + chunk.end) / 2] ^= 0x40;
    write_bytes(path, damaged);
    ReportReader reader;
    const bool usable = reader.open(path);
    const bool last = i + 1 == sample.chunks.size();
    const auto line = damaged_line(path, chunk.offset, "checksum mismatch",
                                   last ? std::nullopt : std::optional<uint64_t>(chunk.end));
    EXPECT_EQ(reader.corrupted_offsets(), std::vector<uint64_t>{chunk.offset});
    if (i == 0) {
      EXPECT_FALSE(usable);
      EXPECT_EQ(reader.status(), ReportStatus::no_header);
      EXPECT_EQ(reader.problems(),
                (std::vector<std::string>{line, "report '" + path + "' has no readable header"}));
      continue;
    }
    ASSERT_TRUE(usable);
    EXPECT_EQ(reader.status(), ReportStatus::corrupted);
    EXPECT_EQ(reader.problems(), std::vector<std::string>{line});
    EXPECT_TRUE(same_events(reader.read_all_events(), events_without_chunk(sample, i)));
    EXPECT_EQ(reader.footer().has_value(), !last);
    EXPECT_EQ(reader.total_dropped(),
              sample.chunks[i].type == static_cast<uint16_t>(ChunkType::drops) ? 0u : 12u);
  }
}

TEST(ReportCorruption, DamageInTheChunkHeaderIsCaughtToo) {
  ScratchDir dir;
  const auto sample = write_sample_report(dir.file("whole.profrep"));
  const auto bytes = read_bytes(sample.path);
  const auto path = dir.file("damaged.profrep");
  const auto &target = sample.chunks[4]; // the second EVENTS chunk
  const auto next = sample.chunks[5].offset;

  struct Case {
    size_t byte;
    uint8_t flip;
    std::string reason;
  };
  const Case cases[] = {
      {0, 0x01, "bad chunk magic"},                       // magic
      {4, 0x08, "checksum mismatch"},                     // type
      {6, 0x01, "checksum mismatch"},                     // flags
      {8, 0x01, "checksum mismatch"},                     // length, one off
      {11, 0x7f, "length runs past the end of the file"}, // length, far too large
      {13, 0xff, "checksum mismatch"},                    // crc
  };
  for (const auto &c : cases) {
    SCOPED_TRACE("byte " + std::to_string(c.byte));
    auto damaged = bytes;
    damaged[target.offset + c.byte] ^= c.flip;
    write_bytes(path, damaged);
    ReportReader reader;
    ASSERT_TRUE(reader.open(path));
    EXPECT_EQ(reader.problems(),
              std::vector<std::string>{damaged_line(path, target.offset, c.reason, next)});
    EXPECT_TRUE(same_events(reader.read_all_events(), events_without_chunk(sample, 4)));
  }
}

TEST(ReportCorruption, EveryDamagedChunkIsReported) {
  ScratchDir dir;
  const auto sample = write_sample_report(dir.file("whole.profrep"));
  auto bytes = read_bytes(sample.path);
  const auto path = dir.file("damaged.profrep");
  bytes[sample.chunks[3].end - 1] ^= 1;
  bytes[sample.chunks[5].end - 1] ^= 1;
  // Two neighbours: the scan resumes at the first valid chunk after both.
  bytes[sample.chunks[7].end - 1] ^= 1;
  bytes[sample.chunks[8].end - 1] ^= 1;
  write_bytes(path, bytes);
  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  EXPECT_EQ(reader.corrupted_offsets(),
            (std::vector<uint64_t>{sample.chunks[3].offset, sample.chunks[5].offset,
                                   sample.chunks[7].offset}));
  EXPECT_EQ(
      reader.problems(),
      (std::vector<std::string>{
          damaged_line(path, sample.chunks[3].offset, "checksum mismatch", sample.chunks[4].offset),
          damaged_line(path, sample.chunks[5].offset, "checksum mismatch", sample.chunks[6].offset),
          damaged_line(path, sample.chunks[7].offset, "checksum mismatch", sample.chunks[9].offset),
      }));
  EXPECT_EQ(reader.event_count(), 20u);
  EXPECT_TRUE(reader.footer().has_value());
}

TEST(ReportCorruption, GarbageBetweenChunksIsSkipped) {
  ScratchDir dir;
  const auto sample = write_sample_report(dir.file("whole.profrep"));
  auto bytes = read_bytes(sample.path);
  const auto at = static_cast<std::ptrdiff_t>(sample.chunks[2].offset);
  const std::vector<uint8_t> garbage = {'P', 'R', 'O', 'F', 1,  2,  3,  4, 3,
                                        0,   0,   0,   9,   10, 11, 12, 13};
  bytes.insert(bytes.begin() + at, garbage.begin(), garbage.end());
  const auto path = dir.file("garbage.profrep");
  write_bytes(path, bytes);
  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  EXPECT_EQ(reader.problems(), std::vector<std::string>{
                                   damaged_line(path, sample.chunks[2].offset, "checksum mismatch",
                                                sample.chunks[2].offset + garbage.size())});
  EXPECT_TRUE(same_events(reader.read_all_events(), sample.events));
  EXPECT_EQ(reader.tracks().size(), 3u);
}

TEST(ReportCorruption, AMalformedPayloadWithAValidChecksumIsReported) {
  ScratchDir dir;
  const auto path = dir.file("malformed.profrep");
  const auto e = slice(1, 2, 3, 4, 5, 6);
  ReportWriter writer;
  writer.open(path, sample_header(), false);
  writer.add_events(&e, 1);
  writer.flush();
  const uint64_t bad_events_at = writer.bytes_written();
  const std::vector<uint8_t> bad_events = {5, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  writer.add_raw_chunk(static_cast<uint16_t>(ChunkType::events), 0, bad_events);
  const uint64_t bad_strings_at = writer.bytes_written();
  const std::vector<uint8_t> bad_strings = {1, 3, 200,
                                            'a'}; // three strings, the first 200 bytes long
  writer.add_raw_chunk(static_cast<uint16_t>(ChunkType::strings), 0, bad_strings);
  const uint64_t flagged_at = writer.bytes_written();
  writer.add_raw_chunk(static_cast<uint16_t>(ChunkType::drops), 0x0001, std::vector<uint8_t>{0});
  writer.add_events(&e, 1);
  writer.finish({});

  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  const std::string prefix = "report '" + path + "': chunk at offset ";
  EXPECT_EQ(reader.status(), ReportStatus::corrupted);
  EXPECT_EQ(
      reader.problems(),
      (std::vector<std::string>{
          prefix + std::to_string(bad_events_at) + " is corrupted (malformed events payload)",
          prefix + std::to_string(bad_strings_at) + " is corrupted (malformed strings payload)",
          prefix + std::to_string(flagged_at) + " is corrupted (unknown flags 0x0001)",
      }));
  EXPECT_EQ(reader.corrupted_offsets(),
            (std::vector<uint64_t>{bad_events_at, bad_strings_at, flagged_at}));
  EXPECT_EQ(reader.event_count(), 2u);
}

TEST(ReportCorruption, ANewerFormatVersionIsAnError) {
  ScratchDir dir;
  const auto path = dir.file("v3.profrep");
  std::vector<uint8_t> payload;
  encode_header(sample_header(), kFormatVersion + 1, payload);
  write_bytes(path, encode_chunk(static_cast<uint16_t>(ChunkType::header), 0, payload));
  ReportReader reader;
  EXPECT_FALSE(reader.open(path));
  EXPECT_EQ(reader.status(), ReportStatus::unsupported_version);
  EXPECT_EQ(reader.problems(),
            std::vector<std::string>{"report '" + path +
                                     "' has format version 3, this prof reads up to 2"});
}

TEST(ReportCorruption, AFileThatDoesNotStartWithAHeaderHasNoHeader) {
  ScratchDir dir;
  const auto path = dir.file("headless.profrep");
  std::vector<uint8_t> payload;
  const std::string_view texts[] = {"a"};
  encode_strings(1, texts, payload);
  write_bytes(path, encode_chunk(static_cast<uint16_t>(ChunkType::strings), 0, payload));
  ReportReader reader;
  EXPECT_FALSE(reader.open(path));
  EXPECT_EQ(reader.status(), ReportStatus::no_header);
  EXPECT_EQ(reader.problems().back(), "report '" + path + "' has no readable header");
}

/// Recomputes the CRC of every chunk the original layout knows, so that
/// damaged payloads pass the checksum and reach the decoders.
void reseal_chunks(std::vector<uint8_t> &bytes, const std::vector<ChunkSpan> &chunks) {
  for (const auto &c : chunks) {
    if (c.end > bytes.size()) break;
    ChunkHeader h = load_chunk_header(bytes.data() + c.offset);
    if (h.length != c.end - c.offset - kChunkHeaderSize) continue;
    const std::span<const uint8_t> pieces[] = {
        std::span(bytes).subspan(c.offset + kChunkHeaderSize, h.length)};
    h.crc = chunk_crc(h.type, h.flags, h.length, pieces);
    store_chunk_header(h, bytes.data() + c.offset);
  }
}

TEST(ReportCorruption, RandomMutationsNeverCrashTheReader) {
  ScratchDir dir;
  const auto sample = write_sample_report(dir.file("whole.profrep"));
  const auto original = read_bytes(sample.path);
  const auto path = dir.file("mutant.profrep");
  std::mt19937_64 rng(20240601);
  const auto pick = [&](uint64_t n) { return n == 0 ? 0 : static_cast<size_t>(rng() % n); };
  const auto started = std::chrono::steady_clock::now();
  size_t usable = 0;

  for (int round = 0; round < 2000; ++round) {
    auto bytes = original;
    const int edits = 1 + static_cast<int>(pick(4));
    bool reseal = pick(2) == 0;
    for (int e = 0; e < edits && !bytes.empty(); ++e) {
      switch (pick(6)) {
      case 0:
        bytes[pick(bytes.size())] ^= static_cast<uint8_t>(1u << pick(8));
        break;
      case 1:
        bytes[pick(bytes.size())] = static_cast<uint8_t>(rng());
        break;
      case 2:
        bytes.resize(pick(bytes.size() + 1));
        reseal = false;
        break;
      case 3:
        bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(pick(bytes.size())),
                     static_cast<uint8_t>(rng()));
        reseal = false;
        break;
      case 4: { // set a varint-looking byte to a large value inside a payload
        const auto &c = sample.chunks[pick(sample.chunks.size())];
        if (c.end > c.offset + kChunkHeaderSize && c.end <= bytes.size())
          bytes[c.offset + kChunkHeaderSize + pick(c.end - c.offset - kChunkHeaderSize)] = 0xff;
        break;
      }
      default: { // copy a random run of bytes over another place
        const size_t from = pick(bytes.size());
        const size_t to = pick(bytes.size());
        const size_t n = std::min({pick(64), bytes.size() - from, bytes.size() - to});
        std::memmove(bytes.data() + to, bytes.data() + from, n);
      }
      }
    }
    if (reseal) reseal_chunks(bytes, sample.chunks);
    write_bytes(path, bytes);

    ReportReader reader;
    if (!reader.open(path)) {
      EXPECT_TRUE(reader.is_error());
      EXPECT_FALSE(reader.problems().empty());
      continue;
    }
    ++usable;
    const auto events = reader.read_all_events();
    EXPECT_EQ(events.size(), reader.event_count());
    for (const auto &ev : events)
      (void)reader.string(ev.name).size();
    EXPECT_EQ(reader.string(0), "");
    EXPECT_EQ(reader.complete(), reader.problems().empty());
  }
  EXPECT_GT(usable, 100u);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(60));
}

} // namespace
} // namespace prof::report
