// What ReportWriter writes, ReportReader reads back: every record, in the
// order of the calls, in chunks of the configured size; and the writer's
// refusals and cut reports.
#include "core/report/chunk.hpp"
#include "core/report/report_reader.hpp"
#include "core/report/report_writer.hpp"
#include "tests/support/report_test_support.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace prof::report {
namespace {

using namespace prof::report::testing;

constexpr auto kEvents = static_cast<uint16_t>(ChunkType::events);
constexpr auto kStrings = static_cast<uint16_t>(ChunkType::strings);

std::vector<uint16_t> chunk_types(const std::string &path) {
  std::vector<uint16_t> types;
  for (const auto &c : chunk_spans(path))
    types.push_back(c.type);
  return types;
}

TEST(ReportWriteRead, EveryRecordComesBack) {
  ScratchDir dir;
  const auto sample = write_sample_report(dir.file("a.profrep"));
  ReportReader reader;
  ASSERT_TRUE(reader.open(sample.path)) << ::testing::PrintToString(reader.problems());
  EXPECT_EQ(reader.status(), ReportStatus::complete);
  EXPECT_TRUE(reader.problems().empty());
  EXPECT_FALSE(reader.truncated());
  EXPECT_FALSE(reader.corrupted());

  Header expected = sample_header();
  expected.format_version = kFormatVersion;
  EXPECT_EQ(reader.header(), expected);
  EXPECT_EQ(reader.strings(), (std::vector<std::string>{"", "matmul", "kernel", "sync", "main"}));
  EXPECT_EQ(reader.string(4), "main");
  EXPECT_EQ(reader.string(5), "");
  EXPECT_EQ(reader.string(UINT32_MAX), "");
  ASSERT_EQ(reader.tracks().size(), 3u);
  for (const auto &t : sample_tracks()) {
    ASSERT_NE(reader.track(t.id), nullptr);
    EXPECT_EQ(*reader.track(t.id), t);
  }
  EXPECT_EQ(reader.track(99), nullptr);
  ASSERT_NE(reader.stack(7), nullptr);
  EXPECT_EQ(reader.stack(7)->frames, (std::vector<uint32_t>{1, 4}));
  ASSERT_EQ(reader.clock_domains().count(PROF_CLOCK_TSC), 1u);
  EXPECT_EQ(reader.clock_domains().at(PROF_CLOCK_TSC).calibration.size(), 2u);
  EXPECT_EQ(reader.total_dropped(), 12u);
  ASSERT_TRUE(reader.footer().has_value());
  EXPECT_EQ(*reader.footer(), (Footer{5000, 50, 12, 0, false, 0}));

  EXPECT_EQ(reader.event_count(), 50u);
  EXPECT_TRUE(same_events(reader.read_all_events(), sample.events));
  std::vector<size_t> batches;
  reader.for_each_event_batch([&](const prof_event *, size_t n) { batches.push_back(n); });
  EXPECT_EQ(batches, (std::vector<size_t>{20, 20, 10}));
}

TEST(ReportWriteRead, ChunksKeepTheOrderOfTheCalls) {
  ScratchDir dir;
  const auto path = dir.file("order.profrep");
  ReportWriter writer;
  writer.open(path, sample_header(), false);
  const auto e = slice(1, 10, 1, 1, 0, 1);
  const std::string_view s1[] = {"a"};
  const std::string_view s2[] = {"b"};
  writer.add_strings(1, s1);
  writer.add_events(&e, 1);
  writer.add_strings(2, s2); // the buffered event must land before these strings
  writer.add_events(&e, 1);
  writer.add_events(&e, 1);
  writer.finish({});
  EXPECT_EQ(chunk_types(path), (std::vector<uint16_t>{1, kStrings, kEvents, kStrings, kEvents, 8}));
  EXPECT_EQ(writer.events_written(), 3u);
  EXPECT_FALSE(writer.is_open());
}

TEST(ReportWriteRead, BytesWrittenIsTheFileSize) {
  ScratchDir dir;
  const auto path = dir.file("size.profrep");
  ReportWriter writer;
  writer.open(path, sample_header(), false);
  std::vector<prof_event> events(1000, sample(2, 5, 6));
  writer.add_events(events.data(), events.size());
  writer.flush();
  EXPECT_EQ(read_bytes(path).size(), writer.bytes_written());
  writer.finish({});
  EXPECT_EQ(read_bytes(path).size(), writer.bytes_written());
}

TEST(ReportWriteRead, LargeBatchesSplitIntoChunksOfTheConfiguredSize) {
  ScratchDir dir;
  const auto path = dir.file("big.profrep");
  std::vector<prof_event> events;
  for (uint64_t i = 0; i < 10'000; ++i)
    events.push_back(slice(1 + i % 3, 1'000'000 + i * 7, i, 1, 2, i));
  ReportWriter writer(WriterOptions{4096});
  writer.open(path, sample_header(), false);
  writer.add_events(events.data(), 3);
  writer.add_events(events.data() + 3, events.size() - 3);
  writer.finish({});
  size_t event_chunks = 0;
  for (const auto &c : chunk_spans(path))
    event_chunks += c.type == kEvents;
  EXPECT_EQ(event_chunks, 3u);
  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  EXPECT_TRUE(same_events(reader.read_all_events(), events));
}

TEST(ReportWriteRead, LaterRecordsMergeAsDocumented) {
  ScratchDir dir;
  const auto path = dir.file("merge.profrep");
  ReportWriter writer;
  writer.open(path, sample_header(), false);
  const DropRecord first[] = {{0, 10, 5}, {1, 11, 7}};
  const DropRecord later[] = {{0, 10, 9}};
  writer.add_drops(first);
  writer.add_drops(later);
  const ClockDomainRecord clock_a[] = {{4, "gpu", 1e9, {{10, 100}, {20, 200}}}};
  const ClockDomainRecord clock_b[] = {{4, "gpu0", 1.5e9, {{20, 200}, {5, 50}}}};
  writer.add_clock_domains(clock_a);
  writer.add_clock_domains(clock_b);
  const std::string_view first_names[] = {"old"};
  const std::string_view new_names[] = {"new", "next"};
  writer.add_strings(1, first_names);
  writer.add_strings(1, new_names);
  writer.finish({});

  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  EXPECT_EQ(reader.drops().at(0).dropped, 9u);
  EXPECT_EQ(reader.total_dropped(), 16u);
  const auto &gpu = reader.clock_domains().at(4);
  EXPECT_EQ(gpu.name, "gpu0");
  EXPECT_EQ(gpu.frequency_hz, 1.5e9);
  EXPECT_EQ(gpu.calibration, (std::vector<ClockCalibration>{{5, 50}, {10, 100}, {20, 200}}));
  EXPECT_EQ(reader.string(1), "new");
  EXPECT_EQ(reader.string(2), "next");
}

TEST(ReportWriteRead, StringIdZeroStaysEmptyAndGapsReadAsEmpty) {
  ScratchDir dir;
  const auto path = dir.file("ids.profrep");
  ReportWriter writer;
  writer.open(path, sample_header(), false);
  const std::string_view zero[] = {"not empty"};
  const std::string_view far[] = {"far"};
  writer.add_strings(0, zero);
  writer.add_strings(10, far);
  writer.finish({});
  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  EXPECT_EQ(reader.string(0), "");
  EXPECT_EQ(reader.string(5), "");
  EXPECT_EQ(reader.string(10), "far");
}

TEST(ReportWriteRead, ManyStringsSplitAcrossChunks) {
  ScratchDir dir;
  const auto path = dir.file("strings.profrep");
  std::vector<std::string> texts;
  for (int i = 0; i < 3000; ++i)
    texts.push_back(std::string(1000, static_cast<char>('a' + i % 26)) + std::to_string(i));
  std::vector<std::string_view> views(texts.begin(), texts.end());
  ReportWriter writer;
  writer.open(path, sample_header(), false);
  writer.add_strings(1, views);
  writer.finish({});
  size_t string_chunks = 0;
  for (const auto &c : chunk_spans(path))
    string_chunks += c.type == kStrings;
  EXPECT_EQ(string_chunks, 3u);
  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  ASSERT_EQ(reader.strings().size(), texts.size() + 1);
  for (size_t i = 0; i < texts.size(); ++i)
    EXPECT_EQ(reader.string(static_cast<uint32_t>(i + 1)), texts[i]);
}

TEST(ReportWriteRead, AnExistingFileIsRefusedAndLeftUntouched) {
  ScratchDir dir;
  const auto path = dir.file("x.profrep");
  write_bytes(path, {'k', 'e', 'e', 'p'});
  ReportWriter writer;
  try {
    writer.open(path, sample_header(), false);
    FAIL() << "open succeeded";
  } catch (const ReportError &e) {
    EXPECT_EQ(std::string(e.what()),
              "report '" + path + "' already exists (use --force-overwrite)");
  }
  EXPECT_EQ(read_bytes(path), (std::vector<uint8_t>{'k', 'e', 'e', 'p'}));
  EXPECT_FALSE(writer.is_open());

  writer.open(path, sample_header(), true);
  writer.finish({});
  ReportReader reader;
  EXPECT_TRUE(reader.open(path));
}

TEST(ReportWriteRead, AnUncreatableFileNamesThePath) {
  ReportWriter writer;
  const std::string path = "/nonexistent-dir-for-prof/a.profrep";
  try {
    writer.open(path, sample_header(), false);
    FAIL() << "open succeeded";
  } catch (const ReportError &e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot create report '" + path + "': No such file or directory");
  }
}

TEST(ReportWriteRead, UnknownChunkTypesAreSkipped) {
  ScratchDir dir;
  const auto path = dir.file("future.profrep");
  const auto e = instant(1, 5, 1, 1);
  ReportWriter writer;
  writer.open(path, sample_header(), false);
  writer.add_events(&e, 1);
  const std::vector<uint8_t> future_payload = {1, 2, 3, 4, 5};
  writer.add_raw_chunk(0x7777, 0x0003, future_payload);
  writer.add_events(&e, 1);
  writer.finish({});
  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  EXPECT_EQ(reader.status(), ReportStatus::complete);
  EXPECT_EQ(reader.skipped_chunks(), 1u);
  EXPECT_EQ(reader.event_count(), 2u);
}

TEST(ReportWriteRead, ADestroyedUnfinishedWriterLeavesAReadableCutReport) {
  ScratchDir dir;
  const auto path = dir.file("cut.profrep");
  const std::vector<prof_event> events = {slice(1, 5, 1, 0, 0, 1), counter(2, 6, 1.0)};
  {
    ReportWriter writer;
    writer.open(path, sample_header(), false);
    writer.add_events(events.data(), events.size());
  }
  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  const auto size = std::to_string(read_bytes(path).size());
  EXPECT_EQ(reader.status(), ReportStatus::truncated);
  EXPECT_EQ(reader.problems(),
            std::vector<std::string>{"report '" + path + "' is cut at byte " + size +
                                     ": read up to the last whole chunk, which ends at byte " +
                                     size});
  EXPECT_FALSE(reader.footer().has_value());
  EXPECT_TRUE(same_events(reader.read_all_events(), events));
}

TEST(ReportWriteRead, FooterCarriesTheExitStatus) {
  ScratchDir dir;
  const auto path = dir.file("killed.profrep");
  ReportWriter writer;
  writer.open(path, sample_header(), false);
  writer.finish(Footer{77, 999, 3, -1, true, 9});
  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  // events_written is the writer's own count.
  EXPECT_EQ(*reader.footer(), (Footer{77, 0, 3, -1, true, 9}));
}

TEST(ReportWriteRead, AChunkThatWouldCompressBeyondWhatReadersAcceptIsStoredAsIs) {
  ScratchDir dir;
  const auto path = dir.file("same.profrep");
  const std::vector<prof_event> events(65536, slice(1, 1000, 0, 1, 0, 5));
  ReportWriter writer;
  writer.open(path, sample_header(), false);
  writer.add_events(events.data(), events.size());
  writer.finish({});
  ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  EXPECT_EQ(reader.status(), ReportStatus::complete) << ::testing::PrintToString(reader.problems());
  ASSERT_EQ(reader.event_chunks().size(), 1u);
  EXPECT_EQ(reader.event_chunks()[0].flags, 0);
  EXPECT_TRUE(same_events(reader.read_all_events(), events));
}

} // namespace
} // namespace prof::report
