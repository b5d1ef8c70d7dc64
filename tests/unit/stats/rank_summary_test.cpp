// Per-rank summaries (tools/prof/stats/rank_summary, summary_combine): their
// bytes round trip, damage is refused, and combining translates each
// summary's ids, also where two ranks interned their strings differently.
#include "tests/support/rank_report.hpp"
#include "tests/support/scratch_dir.hpp"

#include "core/plugin_host/console.hpp"
#include "tools/prof/stats/rank_summary.hpp"
#include "tools/prof/stats/summary_combine.hpp"
#include "tools/prof/stats/summary_store.hpp"
#include <prof/stats/aggregator_wire.hpp>
#include <prof/stats/stats_reports.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sys/stat.h>

namespace prof::tool {
namespace {

/// Every id mapped to another: as if the report had interned in another order.
struct ShiftedIds : stats::WireIds {
  static constexpr uint32_t kShift = 1000;
  prof_string_id string(prof_string_id id) const override { return id ? id + kShift : 0; }
};

std::vector<uint8_t> file_bytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

class RankSummaryTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (int rank = 0; rank < 3; ++rank) {
      reports_.push_back(dir_.file("r" + std::to_string(rank) + ".profrep"));
      testing::write_rank_report(reports_.back(), rank, 400, true);
    }
  }
  /// Report `name` from the combined summaries of the reports, as CSV.
  std::string combined_csv(const std::string &name) {
    CombinedSummaries combined(reports_, nullptr);
    return stats::render_csv({stats::build_report(name, combined.aggregator(), combined.host(),
                                                  stats::ReportOptions{})});
  }

  testing::ScratchDir dir_;
  std::vector<std::string> reports_;
};

TEST_F(RankSummaryTest, RoundTripsItsBytes) {
  const RankSummary made = make_summary(reports_[1], 7, 8);
  EXPECT_EQ(made.facts.header.rank, "1");
  EXPECT_FALSE(made.strings.empty());
  EXPECT_FALSE(made.tracks.empty());
  EXPECT_FALSE(made.aggregator.empty());
  const std::vector<uint8_t> bytes = encode_summary(made);
  RankSummary read;
  ASSERT_TRUE(decode_summary(bytes, read));
  EXPECT_EQ(read.report_size, 7u);
  EXPECT_EQ(read.report_mtime_ns, 8);
  EXPECT_EQ(read.facts.header, made.facts.header);
  EXPECT_EQ(read.facts.events, made.facts.events);
  EXPECT_EQ(read.strings, made.strings);
  EXPECT_EQ(read.tracks, made.tracks);
  EXPECT_EQ(read.aggregator, made.aggregator);
  EXPECT_EQ(encode_summary(read), bytes);
}

TEST_F(RankSummaryTest, RefusesDamagedOrCutBytes) {
  std::vector<uint8_t> bytes = encode_summary(make_summary(reports_[0], 1, 1));
  RankSummary read;
  std::vector<uint8_t> cut(bytes.begin(), bytes.end() - 10);
  EXPECT_FALSE(decode_summary(cut, read));
  bytes[bytes.size() / 2] ^= 0x5a;
  RankSummary again;
  EXPECT_FALSE(decode_summary(bytes, again));
  EXPECT_FALSE(decode_summary({}, again));
}

TEST_F(RankSummaryTest, KeepsOnlyTheStringsItsBytesName) {
  const RankSummary made = make_summary(reports_[0], 1, 1);
  std::map<uint32_t, std::string> strings(made.strings.begin(), made.strings.end());
  bool communicator = false, name = false;
  for (const auto &[id, text] : strings) {
    communicator |= text == "world";
    name |= text == "MPI_Allreduce";
  }
  EXPECT_TRUE(communicator);
  EXPECT_TRUE(name);
}

TEST_F(RankSummaryTest, CombinesAsTheReportsWouldMerge) {
  const std::string stragglers = combined_csv("stragglers");
  EXPECT_NE(stragglers.find("train (rank 0)"), std::string::npos) << stragglers;
  EXPECT_NE(stragglers.find("train (rank 2)"), std::string::npos) << stragglers;
  EXPECT_NE(stragglers.find("late: world MPI_Allreduce #9: train (rank 1)"), std::string::npos)
      << stragglers;
  const std::string steps = combined_csv("steps");
  EXPECT_NE(steps.find("train (rank 1)"), std::string::npos) << steps;
}

TEST_F(RankSummaryTest, TranslatesTheIdsOfRanksThatInternedDifferently) {
  const std::string before = combined_csv("stragglers") + combined_csv("steps");
  // Rank 1's summary rewritten with every string under another id.
  for (const std::string &report : reports_)
    summary_of(report, nullptr);
  const std::string path = summary_path(reports_[1]);
  RankSummary summary;
  ASSERT_TRUE(decode_summary(file_bytes(path), summary));
  const ShiftedIds shifted;
  for (auto &[id, text] : summary.strings)
    id = shifted.string(id);
  for (report::ArgsRecord &set : summary.args)
    for (prof_arg &arg : set.args) {
      arg.key = shifted.string(arg.key);
      if (arg.type == PROF_ARG_STRING) arg.value.u = shifted.string(arg.value.s);
    }
  for (report::StackRecord &stack : summary.stacks)
    for (uint32_t &frame : stack.frames)
      frame = shifted.string(frame);
  stats::StatsAggregator moved(ExportHost(nullptr, nullptr), summary_scope());
  ASSERT_TRUE(stats::AggregatorWire::load(summary.aggregator, moved, shifted));
  summary.aggregator = stats::AggregatorWire::save(moved);
  write_bytes(path, encode_summary(summary));

  EXPECT_EQ(combined_csv("stragglers") + combined_csv("steps"), before);
}

TEST_F(RankSummaryTest, AStaleSummaryIsMadeAgain) {
  const RankSummary first = summary_of(reports_[2], nullptr);
  EXPECT_EQ(first.facts.header.rank, "2");
  // The report replaced by another rank's, with another size.
  testing::write_rank_report(reports_[2], 5, 800, true);
  const RankSummary second = summary_of(reports_[2], nullptr);
  EXPECT_EQ(second.facts.header.rank, "5");
  RankSummary kept;
  ASSERT_TRUE(decode_summary(file_bytes(summary_path(reports_[2])), kept));
  EXPECT_EQ(kept.facts.header.rank, "5");
}

TEST_F(RankSummaryTest, ARankOfManyOperationsKeepsTheSameOnesAsTheOthers) {
  // 1764 all-reduces and steps a rank: over both bounds.
  for (int rank = 0; rank < 2; ++rank)
    testing::write_rank_report(reports_[rank], rank, 30'000, true);
  const RankSummary summary = summary_of(reports_[0], nullptr);
  EXPECT_GT(summary.collectives.stride, 1u);
  EXPECT_GT(summary.collectives.left_out, 0u);
  EXPECT_GT(summary.steps.stride, 1u);
  CombinedSummaries combined({reports_[0], reports_[1]}, nullptr);
  std::map<uint64_t, int> ranks_by_sequence;
  for (const stats::CollectiveCall &call : combined.aggregator().collective_calls())
    ++ranks_by_sequence[call.sequence];
  EXPECT_LE(ranks_by_sequence.size(), kSummaryMaxCollectiveCalls);
  EXPECT_GT(ranks_by_sequence.size(), kSummaryMaxCollectiveCalls / 4);
  for (const auto &[sequence, ranks] : ranks_by_sequence)
    EXPECT_EQ(ranks, 2) << "sequence " << sequence;
  EXPECT_LE(combined.aggregator().steps().size(), 2 * kSummaryMaxSteps);
  ASSERT_EQ(combined.notes_for("stragglers").size(), 1u);
  EXPECT_NE(combined.notes_for("stragglers")[0].find("collective calls left out"),
            std::string::npos);
  ASSERT_EQ(combined.notes_for("steps").size(), 1u);
  EXPECT_TRUE(combined.notes_for("collectives").empty());
}

TEST(KeptOperation, KeepsAboutOneInNAndThoseOfTwiceN) {
  for (const uint64_t stride : {2, 4, 16}) {
    size_t kept = 0, periodic = 0;
    for (uint64_t sequence = 0; sequence < 16000; ++sequence) {
      const bool at_n = kept_operation(sequence, stride);
      kept += at_n;
      periodic += at_n && sequence % 10 == 9;
      if (kept_operation(sequence, stride * 2)) EXPECT_TRUE(at_n) << sequence;
    }
    EXPECT_NEAR(static_cast<double>(kept), 16000.0 / static_cast<double>(stride),
                16000.0 / stride / 5);
    EXPECT_GT(periodic, 0u) << "every 10th operation, one in " << stride;
  }
  for (uint64_t sequence = 0; sequence < 100; ++sequence)
    EXPECT_TRUE(kept_operation(sequence, 1));
}

TEST_F(RankSummaryTest, ASummaryOfAnotherProfsAggregatorIsMadeAgain) {
  summary_of(reports_[0], nullptr);
  const std::string path = summary_path(reports_[0]);
  RankSummary summary;
  ASSERT_TRUE(decode_summary(file_bytes(path), summary));
  const std::vector<uint8_t> current = summary.aggregator;
  summary.aggregator[0] ^= 1; // another version's magic
  write_bytes(path, encode_summary(summary));
  EXPECT_EQ(summary_of(reports_[0], nullptr).aggregator, current);
  RankSummary kept;
  ASSERT_TRUE(decode_summary(file_bytes(path), kept));
  EXPECT_EQ(kept.aggregator, current);
}

TEST_F(RankSummaryTest, ThinningKeepsTheSameSequencesOnEveryRank) {
  CombinedSummaries combined(reports_, nullptr);
  stats::StatsAggregator &aggregator = combined.aggregator();
  const size_t calls = aggregator.collective_calls().size();
  const size_t left_out = thin_collective_calls(aggregator, 4);
  EXPECT_GT(left_out, 0u);
  EXPECT_EQ(aggregator.collective_calls().size() + left_out, calls);
  std::map<uint64_t, int> ranks_by_sequence;
  for (const stats::CollectiveCall &call : aggregator.collective_calls()) {
    EXPECT_TRUE(kept_operation(call.sequence, 4));
    ++ranks_by_sequence[call.sequence];
  }
  for (const auto &[sequence, ranks] : ranks_by_sequence)
    EXPECT_EQ(ranks, 3) << "sequence " << sequence;
}

} // namespace
} // namespace prof::tool
