// A report cut at any byte reads up to its last whole chunk and says so.
#include "core/report/report_reader.hpp"
#include "tests/support/report_test_support.hpp"

#include <gtest/gtest.h>

namespace prof::report {
namespace {

using namespace prof::report::testing;

TEST(ReportTruncation, EveryCutReadsUpToTheLastWholeChunk) {
  ScratchDir dir;
  const auto sample = write_sample_report(dir.file("whole.profrep"));
  const auto bytes = read_bytes(sample.path);
  ASSERT_EQ(sample.chunks.size(),
            10u); // header, strings, tracks, 3 x events, stacks, clocks, drops, end
  ASSERT_EQ(sample.chunks.back().end, bytes.size());
  const uint64_t header_end = sample.chunks.front().end;
  const auto cut_path = dir.file("cut.profrep");

  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut));
    write_bytes(cut_path, std::vector<uint8_t>(bytes.begin(),
                                               bytes.begin() + static_cast<std::ptrdiff_t>(cut)));
    ReportReader reader;
    const bool usable = reader.open(cut_path);

    uint64_t whole_end = 0;
    size_t whole_events = 0;
    for (const auto &c : sample.chunks) {
      if (c.end > cut) break;
      whole_end = c.end;
      whole_events += c.events;
    }
    const std::string cut_line = "report '" + cut_path + "' is cut at byte " + std::to_string(cut) +
                                 ": read up to the last whole chunk, which ends at byte " +
                                 std::to_string(whole_end);

    if (cut < 4) {
      EXPECT_FALSE(usable);
      EXPECT_EQ(reader.status(), ReportStatus::not_a_report);
      EXPECT_EQ(reader.problems(),
                std::vector<std::string>{"'" + cut_path + "' is not a prof report (bad magic)"});
    } else if (cut < header_end) {
      EXPECT_FALSE(usable);
      EXPECT_EQ(reader.status(), ReportStatus::no_header);
      EXPECT_EQ(
          reader.problems(),
          (std::vector<std::string>{cut_line, "report '" + cut_path + "' has no readable header"}));
    } else if (cut < bytes.size()) {
      ASSERT_TRUE(usable);
      EXPECT_EQ(reader.status(), ReportStatus::truncated);
      EXPECT_TRUE(reader.truncated());
      EXPECT_EQ(reader.last_whole_chunk_end(), whole_end);
      EXPECT_EQ(reader.problems(), std::vector<std::string>{cut_line});
      EXPECT_FALSE(reader.footer().has_value());
      EXPECT_EQ(reader.event_count(), whole_events);
      EXPECT_TRUE(
          same_events(reader.read_all_events(),
                      std::vector<prof_event>(sample.events.begin(),
                                              sample.events.begin() +
                                                  static_cast<std::ptrdiff_t>(whole_events))));
      EXPECT_EQ(reader.string(1), cut >= sample.chunks[1].end ? "matmul" : "");
    } else {
      ASSERT_TRUE(usable);
      EXPECT_EQ(reader.status(), ReportStatus::complete);
      EXPECT_TRUE(reader.problems().empty());
      EXPECT_TRUE(same_events(reader.read_all_events(), sample.events));
    }
  }
}

TEST(ReportTruncation, MissingFileAndForeignFileAreErrorsNamingThePath) {
  ScratchDir dir;
  ReportReader reader;
  const auto missing = dir.file("missing.profrep");
  EXPECT_FALSE(reader.open(missing));
  EXPECT_EQ(reader.status(), ReportStatus::cannot_open);
  EXPECT_EQ(reader.problems(), std::vector<std::string>{"cannot open report '" + missing +
                                                        "': No such file or directory"});

  const auto text = dir.file("notes.txt");
  write_bytes(text, {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd', '\n', 0, 0, 0, 0, 0});
  EXPECT_FALSE(reader.open(text));
  EXPECT_EQ(reader.status(), ReportStatus::not_a_report);
  EXPECT_EQ(reader.problems(),
            std::vector<std::string>{"'" + text + "' is not a prof report (bad magic)"});
}

TEST(ReportTruncation, AReaderCanBeReusedForAnotherFile) {
  ScratchDir dir;
  const auto sample = write_sample_report(dir.file("a.profrep"));
  ReportReader reader;
  EXPECT_FALSE(reader.open(dir.file("missing.profrep")));
  ASSERT_TRUE(reader.open(sample.path));
  EXPECT_EQ(reader.status(), ReportStatus::complete);
  EXPECT_TRUE(reader.problems().empty());
  EXPECT_EQ(reader.event_count(), 50u);
}

} // namespace
} // namespace prof::report
