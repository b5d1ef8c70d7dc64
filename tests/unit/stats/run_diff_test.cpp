// `prof diff`: the comparison and its verdicts on runs made by hand, and a
// run's items (steps, places, launches) read from a written report.
#include "stats_report_fixture.hpp"
#include "stats_test_report.hpp"

#include <prof/stats/run_diff.hpp>
#include <prof/stats/run_diff_table.hpp>
#include <prof/stats/run_profile.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace prof::stats {
namespace {

using testing::kOrigin;
using testing::kUs;

/// A run of `times.size()` steps on one rank, the item taking times[i] ns
/// in step i+1 (one call each).
void add_item(RunProfile &run, const ItemKey &key, const std::vector<uint64_t> &times,
              ItemPlace place = {}, const std::string &rank = "train (1)") {
  RunItem &item = run.items[key];
  for (size_t i = 0; i < times.size(); ++i) {
    item.samples[{i + 1, rank}] = {1, times[i]};
    run.steps[i + 1].insert(rank);
  }
  item.place = std::move(place);
}

/// Ten steps around `center`, spread by `spread` either way.
std::vector<uint64_t> around(uint64_t center, uint64_t spread) {
  std::vector<uint64_t> times;
  for (int i = 0; i < 10; ++i)
    times.push_back(center - spread + (i * 2 * spread) / 9);
  return times;
}

const DiffRow &row_of(const RunDiff &diff, const std::string &name) {
  for (const DiffRow &row : diff.rows)
    if (row.key.name == name) return row;
  throw std::runtime_error("no row " + name);
}

TEST(RunDiff, DistributionHasMedianPercentilesAndMad) {
  const Distribution d = distribution_of({5, 1, 3, 2, 4, 100}, {1, 1, 1, 2, 2, 2});
  EXPECT_EQ(d.samples, 6u);
  EXPECT_DOUBLE_EQ(d.median, 3.5);
  EXPECT_DOUBLE_EQ(d.p10, 1);
  EXPECT_DOUBLE_EQ(d.p90, 100);
  EXPECT_DOUBLE_EQ(d.mad, 1.5); // deviations 2.5 1.5 .5 .5 1.5 96.5
  EXPECT_DOUBLE_EQ(d.calls, 1.5);
}

TEST(RunDiff, ClassifiesEachItemAgainstItsOwnNoise) {
  RunProfile base, next;
  const ItemKey mm{"kernel", "gemm"}, relu{"kernel", "relu"}, noisy{"operator", "aten::cat"};
  add_item(base, mm, around(1'000'000, 20'000));
  add_item(next, mm, around(1'300'000, 20'000)); // +30%, far past its noise
  add_item(base, relu, around(500'000, 10'000));
  add_item(next, relu, around(510'000, 10'000)); // +2%: under the threshold
  // +20% but each run spreads over 0.2x-1.8x of its median: within the noise.
  add_item(base, noisy, around(1'000'000, 800'000));
  add_item(next, noisy, around(1'200'000, 800'000));
  add_item(base, {"range", "load"}, around(2'000'000, 1000));
  add_item(next, {"range", "load"}, around(1'000'000, 1000)); // -50%
  add_item(base, {"python", "old_helper"}, around(100'000, 0));
  add_item(next, {"python", "new_helper"}, around(100'000, 0));

  const RunDiff diff = compare_runs(base, next, {});
  EXPECT_TRUE(diff.by_step);
  EXPECT_EQ(diff.steps.size(), 10u);
  EXPECT_EQ(diff.matched, 4u);
  const DiffRow &slower = row_of(diff, "gemm");
  EXPECT_EQ(slower.verdict, Verdict::Slower);
  EXPECT_NEAR(slower.change, 0.30, 0.001);
  EXPECT_DOUBLE_EQ(slower.sure, 1.0);
  EXPECT_EQ(row_of(diff, "relu").verdict, Verdict::Same);
  EXPECT_EQ(row_of(diff, "aten::cat").verdict, Verdict::Same);
  EXPECT_GT(row_of(diff, "aten::cat").noise, 200'000);
  EXPECT_EQ(row_of(diff, "load").verdict, Verdict::Faster);
  EXPECT_DOUBLE_EQ(row_of(diff, "load").sure, 1.0);
  EXPECT_EQ(row_of(diff, "old_helper").verdict, Verdict::Gone); // no place: not a rename
  EXPECT_EQ(row_of(diff, "new_helper").verdict, Verdict::New);
  // Slower first, then faster, new, gone, same.
  ASSERT_EQ(diff.rows.size(), 6u);
  EXPECT_EQ(diff.rows[0].key.name, "gemm");
  EXPECT_EQ(diff.rows[1].key.name, "load");
  EXPECT_EQ(diff.rows[2].verdict, Verdict::New);
  EXPECT_EQ(diff.rows[3].verdict, Verdict::Gone);

  EXPECT_EQ(regressions(diff, 25).size(), 1u);
  EXPECT_TRUE(regressions(diff, 31).empty());
}

TEST(RunDiff, ThresholdAndSmallestChangeAreOptions) {
  RunProfile base, next;
  add_item(base, {"kernel", "k"}, around(1'000'000, 0));
  add_item(next, {"kernel", "k"}, around(1'030'000, 0));
  EXPECT_EQ(compare_runs(base, next, {}).rows[0].verdict, Verdict::Same);
  EXPECT_EQ(compare_runs(base, next, {.threshold = 0.02}).rows[0].verdict, Verdict::Slower);
  EXPECT_EQ(compare_runs(base, next, {.threshold = 0.02, .min_change_ns = 50'000}).rows[0].verdict,
            Verdict::Same);
}

TEST(RunDiff, MatchesAnItemRenamedAtTheSamePlace) {
  RunProfile base, next;
  add_item(base, {"kernel", "gemm_v1"}, around(1'000'000, 1000), {"operator aten::mm", 0});
  add_item(next, {"kernel", "gemm_v2"}, around(1'000'000, 1000), {"operator aten::mm", 0});
  // Two gone at one place and one new there: which one it was is not known.
  add_item(base, {"kernel", "a"}, around(1000, 0), {"operator aten::add", 1});
  add_item(base, {"device", "a"}, around(1000, 0), {"operator aten::add", 1});
  add_item(base, {"kernel", "b"}, around(1000, 0), {"operator aten::add", 2});
  add_item(next, {"kernel", "c"}, around(1000, 0), {"operator aten::add", 2});
  add_item(next, {"kernel", "d"}, around(1000, 0), {"operator aten::add", 2});
  const RunDiff diff = compare_runs(base, next, {});
  const DiffRow &renamed = row_of(diff, "gemm_v2");
  EXPECT_EQ(renamed.verdict, Verdict::Same);
  EXPECT_EQ(renamed.renamed_from, "gemm_v1");
  EXPECT_EQ(row_of(diff, "a").renamed_from, ""); // kernel a: alone of its kind there, no new one
  EXPECT_EQ(row_of(diff, "b").verdict, Verdict::Gone);
  EXPECT_EQ(row_of(diff, "c").verdict, Verdict::New);
  EXPECT_EQ(diff.matched, 1u);
  const StatsTable table = diff_table(diff, {}, "base", "new");
  const size_t last = diff.rows.size() - 1; // the one row that is the same
  EXPECT_EQ(testing::value(table, 0, last, "Name"), "gemm_v2");
  EXPECT_EQ(testing::value(table, 0, last, "Note"), "renamed from gemm_v1");
}

TEST(RunDiff, WithoutCommonStepsComparesWholeRunsPerRank) {
  RunProfile base, next;
  add_item(base, {"kernel", "k"}, {100'000, 100'000});
  // NEW has no steps: its one sample per rank is its whole run.
  next.items[{"kernel", "k"}].samples[{0, "a (1)"}] = {4, 300'000};
  next.items[{"kernel", "k"}].samples[{0, "b (2)"}] = {4, 320'000};
  const RunDiff diff = compare_runs(base, next, {});
  EXPECT_FALSE(diff.by_step);
  ASSERT_EQ(diff.rows.size(), 1u);
  EXPECT_EQ(diff.rows[0].base.samples, 1u); // base: one rank
  EXPECT_EQ(diff.rows[0].next.samples, 2u);
  EXPECT_DOUBLE_EQ(diff.rows[0].base.median, 200'000);
  EXPECT_DOUBLE_EQ(diff.rows[0].next.median, 310'000);
  EXPECT_EQ(diff.rows[0].verdict, Verdict::Slower);
  EXPECT_LT(diff.rows[0].sure, 0); // too few samples to say
}

TEST(RunDiff, AStepWithoutTheItemCountsZero) {
  RunProfile base, next;
  add_item(base, {"step", "step"}, around(1'000'000, 0));
  add_item(next, {"step", "step"}, around(1'000'000, 0));
  add_item(base, {"kernel", "every"}, around(1000, 0));
  // NEW runs it in every other step: half the time per step.
  RunItem &item = next.items[{"kernel", "every"}];
  for (uint64_t step = 1; step <= 10; step += 2)
    item.samples[{step, "train (1)"}] = {1, 1000};
  const RunDiff diff = compare_runs(base, next, {.min_change_ns = 0});
  const DiffRow &row = row_of(diff, "every");
  EXPECT_EQ(row.next.samples, 10u);
  EXPECT_DOUBLE_EQ(row.next.median, 500);
  EXPECT_DOUBLE_EQ(row.next.mad, 500);
  EXPECT_EQ(row.verdict, Verdict::Same); // -50%, but each step is 0 or 1000: noise
}

TEST(RunDiff, NothingInCommonMatchesNothing) {
  RunProfile base, next;
  add_item(base, {"kernel", "a"}, {1000});
  add_item(next, {"kernel", "b"}, {1000});
  EXPECT_EQ(compare_runs(base, next, {}).matched, 0u);
}

TEST(RunDiff, TableSaysTheVerdict) {
  RunProfile base, next;
  add_item(base, {"kernel", "gemm"}, around(1'000'000, 0));
  add_item(next, {"kernel", "gemm"}, around(1'500'000, 0));
  for (auto &[key, value] : next.items.at({"kernel", "gemm"}).samples)
    value.calls = 2; // each step calls it twice now
  add_item(base, {"kernel", "steady"}, around(1000, 0));
  add_item(next, {"kernel", "steady"}, around(1000, 0));
  const RunDiff diff = compare_runs(base, next, {});
  const StatsTable table = diff_table(diff, {}, "a.profrep", "b.profrep");
  EXPECT_EQ(testing::value(table, 0, 0, "Verdict"), "slower");
  EXPECT_EQ(testing::value(table, 0, 0, "Change(%)"), "50");
  EXPECT_EQ(testing::value(table, 0, 0, "Base median(ns)"), "1000000");
  EXPECT_EQ(testing::value(table, 0, 0, "New median(ns)"), "1500000");
  EXPECT_EQ(testing::value(table, 0, 0, "New calls"), "2");
  EXPECT_EQ(testing::value(table, 0, 0, "Note"), "calls 1 -> 2");
  EXPECT_EQ(testing::value(table, 0, 0, "Sure(%)"), "100");
  EXPECT_EQ(testing::value(table, 0, 1, "Sure(%)"), "nan"); // not known for "same": null in JSON
  EXPECT_NE(render_json({table}).find("\"Sure(%)\": null"), std::string::npos);
  EXPECT_EQ(table.notes.back(),
            "verdict: regression: 1 slower (largest: kernel gemm +50.00%), 0 faster, 0 new, 0 "
            "gone, 1 same");
  const std::string text = render_table({table});
  EXPECT_NE(text.find("======== prof diff: b.profrep against a.profrep (per step, on the 10 "
                      "steps both ran):"),
            std::string::npos);
}

// A run read from a report: two steps; in each an operator aten::linear
// calling aten::mm, which launches kernel gemm (through a runtime call with
// its correlation id) whose work runs on the device after the step ended on
// the host; a Python function range, a range and a collective.
class RunProfileFromReport : public testing::ReportFixture {
protected:
  RunProfile read() {
    RunProfileBuilder builder(host_->host());
    std::vector<prof_event> batch;
    for (const auto &chunk : reader_.event_chunks()) {
      EXPECT_TRUE(reader_.decode_events(chunk, batch));
      builder.add(batch.data(), batch.size());
    }
    return builder.finish();
  }
};

TEST_F(RunProfileFromReport, AssignsStepsPlacesAndLaunches) {
  testing::TestReport r;
  const uint32_t process = r.process("train", 10);
  const uint32_t main = r.thread(process, "train", 10);
  const uint32_t device = r.track(PROF_TRACK_DEVICE, 0, "GPU 0", 0);
  const uint32_t stream = r.owned(PROF_TRACK_ENGINE, device, "Stream 7", 10);
  const auto us = [](uint64_t t) { return kOrigin + t * kUs; };
  for (uint64_t step = 1; step <= 2; ++step) {
    const uint64_t at = (step - 1) * 1000;
    r.step(main, us(at), 1000 * kUs, step);
    r.op(main, us(at + 10), 500 * kUs, "aten::linear");
    r.op(main, us(at + 20), 100 * kUs, "aten::t");
    r.op(main, us(at + 200), 300 * kUs, "aten::mm");
    r.call(main, us(at + 210), 5 * kUs, "cudaLaunchKernel", 100 + step);
    r.call(stream, us(at + 1100), 200 * kUs, "gemm", 100 + step, PROF_CATEGORY_KERNEL);
    r.op(main, us(at + 600), 50 * kUs, "aten::mm", "backward");
    r.annotation(main, us(at + 700), 20 * kUs, "Trainer.loss", "", "python");
    r.annotation(main, us(at + 750), 20 * kUs, "checkpoint");
    r.communication(main, us(at + 800), 100 * kUs, "allreduce", "pg0", 4096, step);
  }
  open(r, 7);
  const RunProfile run = read();
  ASSERT_EQ(run.steps.size(), 2u);
  const std::string rank = run.steps.at(1).begin()->c_str();
  EXPECT_EQ(rank, "train (10)");

  const auto item = [&run](const std::string &kind, const std::string &name) -> const RunItem & {
    const auto found = run.items.find({kind, name});
    EXPECT_NE(found, run.items.end()) << kind << " " << name;
    static const RunItem none;
    return found != run.items.end() ? found->second : none;
  };
  // The kernel ran after its step's end on the host: it counts in the step
  // of its launch, under the operator that launched it.
  const RunItem &gemm = item("kernel", "gemm");
  ASSERT_EQ(gemm.samples.size(), 2u);
  EXPECT_EQ(gemm.samples.at({1, rank}).time, 200 * kUs);
  EXPECT_EQ(gemm.samples.at({2, rank}).calls, 1u);
  EXPECT_EQ(gemm.place.parent, "operator aten::mm");
  EXPECT_EQ(gemm.place.position, 0u);
  // aten::mm is aten::linear's second child operator.
  EXPECT_EQ(item("operator", "aten::mm").place.parent, "operator aten::linear");
  EXPECT_EQ(item("operator", "aten::mm").place.position, 1u);
  EXPECT_EQ(item("operator", "aten::t").place.position, 0u);
  EXPECT_EQ(item("operator", "aten::linear").place.parent, "");
  EXPECT_EQ(item("operator", "aten::mm (backward)").samples.at({2, rank}).time, 50 * kUs);
  EXPECT_EQ(item("python", "Trainer.loss").samples.size(), 2u);
  EXPECT_EQ(item("range", "checkpoint").samples.size(), 2u);
  EXPECT_EQ(item("collective", "allreduce @ pg0").samples.at({1, rank}).time, 100 * kUs);
  EXPECT_EQ(item("step", "step").samples.at({2, rank}).time, 1000 * kUs);
  // Steps are steps, not ranges; launch calls are no items.
  EXPECT_EQ(run.items.count({"range", "step"}), 0u);
  EXPECT_EQ(run.items.size(), 9u);
}

} // namespace
} // namespace prof::stats
