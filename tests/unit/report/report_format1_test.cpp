// Reports of format 1 (EVENTS payloads in their first layout) still read:
// tests/fixtures/report/format-1.profrep was written by that writer, with
// three zstd-compressed EVENTS chunks and one stored as is.
#include "core/report/report_reader.hpp"
#include "tests/support/report_test_support.hpp"

#include <gtest/gtest.h>

namespace prof::report {
namespace {

using namespace prof::report::testing;

const std::string kFixture =
    std::string(PROF_SOURCE_DIR) + "/tests/fixtures/report/format-1.profrep";

// The events the fixture was written with (ReportWriter, 100 per chunk).
std::vector<prof_event> format1_events() {
  std::vector<prof_event> events;
  for (uint32_t i = 0; i < 305; ++i) {
    const uint64_t ts = 1'000'000 + 1250 * i + (i * i) % 97;
    switch (i % 5) {
    case 0:
      events.push_back(slice(2 + i % 3, ts, 400 + (i * 37) % 1000, 1 + i % 4, 2, 100 + i));
      break;
    case 1:
      events.push_back(instant(2, ts, 3, 0));
      break;
    case 2: {
      prof_event c = counter(3, ts, 0.25 * i);
      c.id = i;
      events.push_back(c);
      break;
    }
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

TEST(ReportFormat1, EveryRecordAndEventStillReads) {
  ReportReader reader;
  ASSERT_TRUE(reader.open(kFixture)) << ::testing::PrintToString(reader.problems());
  EXPECT_EQ(reader.status(), ReportStatus::complete);
  EXPECT_TRUE(reader.problems().empty());
  Header expected = sample_header();
  expected.format_version = 1;
  expected.world_size = ""; // written by later releases only
  EXPECT_EQ(reader.header(), expected);
  EXPECT_EQ(reader.strings(), (std::vector<std::string>{"", "matmul", "kernel", "sync", "main"}));
  ASSERT_EQ(reader.tracks().size(), 3u);
  ASSERT_NE(reader.stack(7), nullptr);
  EXPECT_EQ(reader.total_dropped(), 12u);
  ASSERT_TRUE(reader.footer().has_value());
  EXPECT_EQ(reader.footer()->events_written, 305u);

  std::vector<uint16_t> flags;
  for (const auto &chunk : reader.event_chunks())
    flags.push_back(chunk.flags);
  EXPECT_EQ(flags, (std::vector<uint16_t>{1, 1, 1, 0})); // kChunkZstd but the last
  EXPECT_EQ(reader.event_count(), 305u);
  EXPECT_TRUE(same_events(reader.read_all_events(), format1_events()));
}

TEST(ReportFormat1, ReadsWithoutCheckingEventsAtOpen) {
  ReportReader reader;
  ASSERT_TRUE(reader.open(kFixture, ReadOptions{false}));
  EXPECT_EQ(reader.event_count(), 305u);
  std::vector<prof_event> batch, all;
  for (const auto &chunk : reader.event_chunks()) {
    ASSERT_TRUE(reader.decode_events(chunk, batch));
    all.insert(all.end(), batch.begin(), batch.end());
  }
  EXPECT_TRUE(same_events(all, format1_events()));
}

} // namespace
} // namespace prof::report
