// Collection windows keep exactly the events of their intervals, whatever
// order they arrive in; each window has its own output; cancel discards.
#include "core/capture/capture_windows.hpp"
#include "core/capture/flight_recorder.hpp"

#include <prof/event.hpp>

#include <gtest/gtest.h>

#include <map>

namespace prof::core {
namespace {

struct Recorded {
  std::vector<uint64_t> ts;
  bool finished = false;
  bool discarded = false;
  CaptureEnd end;
  CatalogMark catalog;
};

class RecordingOutput final : public WindowOutput {
public:
  explicit RecordingOutput(Recorded &r) : r_(r), sink_(r) {}
  EventSink &sink() override { return sink_; }
  std::string finish(const Catalog &, const CaptureEnd &end) override {
    r_.finished = true;
    r_.end = end;
    return "";
  }
  void discard() override { r_.discarded = true; }
  std::string description() const override { return "recorded"; }

private:
  struct Sink final : EventSink {
    explicit Sink(Recorded &r) : r(r) {}
    void catalog_grew(const Catalog &, const CatalogMark &, const CatalogMark &now) override {
      r.catalog = now;
    }
    void consume(const prof_event *events, size_t count) override {
      for (size_t i = 0; i < count; ++i)
        r.ts.push_back(events[i].ts);
    }
    Recorded &r;
  };
  Recorded &r_;
  Sink sink_;
};

struct AllEvents final : EventSink {
  void consume(const prof_event *events, size_t count) override {
    for (size_t i = 0; i < count; ++i)
      ts.push_back(events[i].ts);
  }
  std::vector<uint64_t> ts;
};

class CaptureWindowsTest : public ::testing::Test {
protected:
  CaptureWindowsTest()
      : windows_(
            catalog_, {&shared_},
            [this](const WindowFacts &facts, std::string *) {
              return std::make_unique<RecordingOutput>(outputs_[facts.index]);
            },
            nullptr, std::chrono::milliseconds(0)) {}

  void feed(std::vector<uint64_t> stamps) {
    std::vector<prof_event> events(stamps.size());
    for (size_t i = 0; i < stamps.size(); ++i) {
      events[i].type = PROF_EVENT_INSTANT;
      events[i].ts = stamps[i];
    }
    windows_.consume(events.data(), events.size());
  }

  Catalog catalog_;
  AllEvents shared_;
  std::map<uint32_t, Recorded> outputs_;
  CaptureWindows windows_;
};

TEST_F(CaptureWindowsTest, NothingIsKeptBeforeTheFirstStart) {
  feed({1, 2, 3});
  EXPECT_TRUE(shared_.ts.empty());
  EXPECT_TRUE(outputs_.empty());
  EXPECT_FALSE(windows_.collecting());
}

TEST_F(CaptureWindowsTest, EachWindowHoldsExactlyItsInterval) {
  ASSERT_TRUE(windows_.start(100).ok);
  feed({99, 100, 150});
  ASSERT_TRUE(windows_.stop(200).ok);
  // Late events of window 1's interval still reach it; later ones do not.
  feed({199, 200, 250});
  ASSERT_TRUE(windows_.start(300).ok);
  feed({120, 299, 300, 420, 180});
  windows_.finish(catalog_, CaptureEnd{500});
  EXPECT_EQ(outputs_[1].ts, (std::vector<uint64_t>{100, 150, 199, 120, 180}));
  EXPECT_EQ(outputs_[2].ts, (std::vector<uint64_t>{300, 420}));
  EXPECT_EQ(outputs_[1].end.end_ns, 200u);
  EXPECT_EQ(outputs_[1].end.events, 5u);
  EXPECT_EQ(outputs_[2].end.end_ns, 500u);
  EXPECT_TRUE(outputs_[1].finished && outputs_[2].finished);
  EXPECT_EQ(shared_.ts.size(), 7u);
}

// A step-aligned window opens at the first boundary heard; a process heard
// later that began the step earlier moves its start back, never into the
// window before it.
TEST_F(CaptureWindowsTest, AWindowStartsEarlierForAStepBegunBeforeItOpened) {
  ASSERT_TRUE(windows_.start(100).ok);
  ASSERT_TRUE(windows_.stop(200).ok);
  ASSERT_TRUE(windows_.start(300).ok);
  feed({290});
  windows_.start_earlier(280);
  feed({285, 279});
  windows_.start_earlier(150); // inside window 1: only back to its end
  feed({199, 200});
  windows_.start_earlier(400); // later: no change
  feed({250});
  windows_.finish(catalog_, CaptureEnd{500});
  EXPECT_EQ(outputs_[2].ts, (std::vector<uint64_t>{285, 200, 250}));
  EXPECT_EQ(outputs_[1].ts, (std::vector<uint64_t>{199}));
}

TEST_F(CaptureWindowsTest, SuspendCutsOutExactlyTheSuspendedInterval) {
  ASSERT_TRUE(windows_.start(0).ok);
  ASSERT_TRUE(windows_.suspend(100).ok);
  EXPECT_TRUE(windows_.suspended());
  feed({99, 100, 150});
  ASSERT_TRUE(windows_.resume(200).ok);
  feed({199, 200, 201, 120});
  EXPECT_FALSE(windows_.resume(300).ok);
  ASSERT_TRUE(windows_.suspend(300).ok);
  ASSERT_TRUE(windows_.stop(400).ok); // stopped while suspended: the cut runs to the end
  feed({299, 300, 399});
  windows_.finish_due(std::chrono::steady_clock::now(), CaptureEnd{});
  EXPECT_EQ(outputs_[1].ts, (std::vector<uint64_t>{99, 200, 201, 299}));
}

TEST_F(CaptureWindowsTest, CancelDiscardsTheWindowAndKeepsNothing) {
  ASSERT_TRUE(windows_.start(0).ok);
  feed({10, 20});
  ASSERT_TRUE(windows_.cancel(30).ok);
  feed({25, 40});
  EXPECT_TRUE(outputs_[1].discarded);
  EXPECT_FALSE(outputs_[1].finished);
  EXPECT_FALSE(windows_.collecting());
  ASSERT_TRUE(windows_.start(50).ok);
  feed({45, 60});
  windows_.finish(catalog_, CaptureEnd{70});
  EXPECT_EQ(outputs_[2].ts, (std::vector<uint64_t>{60}));
}

TEST_F(CaptureWindowsTest, CommandsOutOfOrderAreRefusedWithAReason) {
  EXPECT_EQ(windows_.stop(1).text, "no collection window is running");
  EXPECT_FALSE(windows_.suspend(1).ok);
  EXPECT_FALSE(windows_.cancel(1).ok);
  ASSERT_TRUE(windows_.start(5).ok);
  const WindowResult again = windows_.start(6);
  EXPECT_FALSE(again.ok);
  EXPECT_EQ(again.text, "collection window 1 is already running; stop it first");
}

TEST_F(CaptureWindowsTest, ALaterWindowGetsTheWholeCatalog) {
  catalog_.strings.intern("a");
  catalog_.strings.intern("b");
  const CatalogMark now = mark_of(catalog_);
  windows_.catalog_grew(catalog_, CatalogMark{}, now);
  ASSERT_TRUE(windows_.start(10).ok);
  EXPECT_EQ(outputs_[1].catalog.strings, now.strings);
}

TEST_F(CaptureWindowsTest, AStoppedWindowWaitsForItsGracePeriod) {
  Recorded late;
  CaptureWindows graced(
      catalog_, {},
      [&](const WindowFacts &, std::string *) { return std::make_unique<RecordingOutput>(late); },
      nullptr, std::chrono::milliseconds(1000));
  ASSERT_TRUE(graced.start(0).ok);
  ASSERT_TRUE(graced.stop(100).ok);
  graced.finish_due(std::chrono::steady_clock::now(), CaptureEnd{});
  EXPECT_FALSE(late.finished);
  EXPECT_TRUE(graced.finishing());
  graced.finish_due(std::chrono::steady_clock::now() + std::chrono::seconds(2), CaptureEnd{});
  EXPECT_TRUE(late.finished);
  EXPECT_FALSE(graced.finishing());
}

TEST_F(CaptureWindowsTest, GraceIsOverOnlyWhenEveryStoppedWindowsGraceHasPassed) {
  Recorded kept;
  CaptureWindows graced(
      catalog_, {},
      [&](const WindowFacts &, std::string *) { return std::make_unique<RecordingOutput>(kept); },
      nullptr, std::chrono::milliseconds(1000));
  const auto now = std::chrono::steady_clock::now();
  EXPECT_TRUE(graced.grace_over(now)) << "no stopped window waits";
  ASSERT_TRUE(graced.start(0).ok);
  ASSERT_TRUE(graced.stop(100).ok);
  EXPECT_FALSE(graced.grace_over(now));
  EXPECT_TRUE(graced.grace_over(now + std::chrono::seconds(2)));
  EXPECT_FALSE(kept.finished) << "asking finishes nothing";
}

// The flight recorder (--flight-recorder): the latest events within a
// bound, written only on a dump or an abnormal end.

std::vector<prof_event> instants(std::vector<uint64_t> stamps) {
  std::vector<prof_event> events(stamps.size());
  for (size_t i = 0; i < stamps.size(); ++i) {
    events[i].type = PROF_EVENT_INSTANT;
    events[i].ts = stamps[i];
  }
  return events;
}

TEST(EventRing, KeepsTheLatestBytes) {
  EventRing ring({10 * sizeof(prof_event), 0});
  std::vector<uint64_t> stamps;
  for (uint64_t ts = 0; ts < 25; ++ts)
    stamps.push_back(ts);
  const auto events = instants(stamps);
  ring.add(events.data(), 12);
  ring.add(events.data() + 12, 13);
  ASSERT_EQ(ring.size(), 10u);
  EXPECT_EQ(ring.oldest_first().front().ts, 15u);
  EXPECT_EQ(ring.oldest_first().back().ts, 24u);
  EXPECT_EQ(ring.forgotten(), 15u);
  EXPECT_EQ(ring.bytes(), 10 * sizeof(prof_event));
}

TEST(EventRing, KeepsTheLatestSeconds) {
  EventRing ring({0, 100});
  std::vector<uint64_t> stamps;
  for (uint64_t ts = 0; ts <= 1000; ts += 10)
    stamps.push_back(ts);
  const auto events = instants(stamps);
  ring.add(events.data(), events.size());
  EXPECT_EQ(ring.oldest_first().front().ts, 900u);
  EXPECT_EQ(ring.size(), 11u);
}

// Past the first lap of a ring that grew: still the latest, in order.
TEST(EventRing, KeepsTheLatestInOrderOverManyLaps) {
  EventRing ring({3000 * sizeof(prof_event), 0});
  std::vector<uint64_t> stamps;
  for (uint64_t ts = 0; ts < 10'000; ++ts)
    stamps.push_back(ts);
  const auto events = instants(stamps);
  for (size_t at = 0; at < events.size(); at += 7)
    ring.add(events.data() + at, std::min<size_t>(7, events.size() - at));
  const std::vector<prof_event> kept = ring.oldest_first();
  ASSERT_EQ(kept.size(), 3000u);
  for (size_t i = 0; i < kept.size(); ++i)
    ASSERT_EQ(kept[i].ts, 7000 + i);
  EXPECT_EQ(ring.forgotten(), 7000u);
}

TEST(FlightRecorderOutput, DumpsWriteTheLatestEventsInOrderAndCollectionGoesOn) {
  Catalog catalog;
  std::map<uint32_t, Recorded> dumps;
  std::map<uint32_t, uint64_t> starts;
  FlightRecorderOutput recorder(
      {4 * sizeof(prof_event), 0},
      [&](uint32_t dump, uint64_t start_ns, std::string *) -> std::unique_ptr<WindowOutput> {
        starts[dump] = start_ns;
        return std::make_unique<RecordingOutput>(dumps[dump]);
      });
  const auto first = instants({1, 2, 3, 5, 4, 6});
  recorder.sink().consume(first.data(), first.size());
  std::string path;
  ASSERT_EQ(recorder.dump(catalog, CaptureEnd{10}, &path), "");
  EXPECT_EQ(path, "recorded");
  EXPECT_EQ(dumps[1].ts, (std::vector<uint64_t>{3, 4, 5, 6}));
  EXPECT_EQ(starts[1], 3u);
  EXPECT_TRUE(dumps[1].finished);

  const auto second = instants({7, 8});
  recorder.sink().consume(second.data(), second.size());
  ASSERT_EQ(recorder.dump(catalog, CaptureEnd{20}, &path), "");
  // The latest to arrive (5 came before 4), written in time order.
  EXPECT_EQ(dumps[2].ts, (std::vector<uint64_t>{4, 6, 7, 8}));

  EXPECT_EQ(recorder.finish(catalog, CaptureEnd{30}), "");
  EXPECT_EQ(dumps.size(), 2u) << "a normal end writes nothing";
  EXPECT_EQ(recorder.description(), "") << "nothing new to announce";
}

// Unfinished slices (what threads were inside when a dump was asked) stay
// outside the bound and go with the next dump only.
TEST(FlightRecorderOutput, UnfinishedSlicesGoWithTheNextDumpOnly) {
  Catalog catalog;
  std::map<uint32_t, Recorded> dumps;
  FlightRecorderOutput recorder({2 * sizeof(prof_event), 0},
                                [&](uint32_t dump, uint64_t, std::string *) {
                                  return std::make_unique<RecordingOutput>(dumps[dump]);
                                });
  auto events = instants({1, 2, 3, 4});
  events[1].type = PROF_EVENT_SLICE;
  events[1].flags = PROF_SLICE_UNFINISHED; // begun at 2, open at the dump
  recorder.sink().consume(events.data(), events.size());
  std::string path;
  ASSERT_EQ(recorder.dump(catalog, CaptureEnd{10}, &path), "");
  EXPECT_EQ(dumps[1].ts, (std::vector<uint64_t>{2, 3, 4})) << "the bound's two, and the open one";
  ASSERT_EQ(recorder.dump(catalog, CaptureEnd{20}, &path), "");
  EXPECT_EQ(dumps[2].ts, (std::vector<uint64_t>{3, 4})) << "open then, not now";
}

// An hour's worth of events, each with arguments of its own (a step
// number), through a recorder that keeps 1000: the argument table stays
// near what the kept events use, and a dump's events still carry theirs.
TEST(FlightRecorderOutput, WithASweeperTheArgumentSetsStayWithinWhatTheRingKeeps) {
  Catalog catalog;
  ArgsSweeper sweeper(catalog.args);
  std::map<uint32_t, std::vector<std::pair<uint64_t, uint64_t>>> dumped; // ts, step
  struct ArgsSink final : EventSink {
    ArgsSink(const Catalog &catalog, std::vector<std::pair<uint64_t, uint64_t>> &out)
        : catalog(catalog), out(out) {}
    void consume(const prof_event *events, size_t count) override {
      for (size_t i = 0; i < count; ++i) {
        const auto args = catalog.args.args(static_cast<prof_args_id>(events[i].args));
        out.emplace_back(events[i].ts, args.empty() ? 0 : args[0].value.u);
      }
    }
    const Catalog &catalog;
    std::vector<std::pair<uint64_t, uint64_t>> &out;
  };
  struct ArgsOutput final : WindowOutput {
    ArgsOutput(const Catalog &catalog, std::vector<std::pair<uint64_t, uint64_t>> &out)
        : events(catalog, out) {}
    EventSink &sink() override { return events; }
    std::string finish(const Catalog &, const CaptureEnd &) override { return ""; }
    void discard() override {}
    std::string description() const override { return "dumped"; }
    ArgsSink events;
  };
  constexpr uint64_t kKept = 1000, kEvents = 200'000;
  {
    FlightRecorderOutput recorder(
        {kKept * sizeof(prof_event), 0},
        [&](uint32_t dump, uint64_t, std::string *) -> std::unique_ptr<WindowOutput> {
          return std::make_unique<ArgsOutput>(catalog, dumped[dump]);
        },
        &sweeper);
    size_t most_live = 0;
    for (uint64_t ts = 1; ts <= kEvents; ts += 100) {
      std::vector<prof_event> batch = instants({});
      for (uint64_t t = ts; t < ts + 100; ++t) {
        prof_event e{};
        e.type = PROF_EVENT_INSTANT;
        e.ts = t;
        const prof_arg step[1] = {arg_uint(catalog.strings.intern("step"), t)};
        e.args = catalog.args.intern({step, 1});
        batch.push_back(e);
      }
      recorder.sink().consume(batch.data(), batch.size());
      most_live = std::max(most_live, catalog.args.live());
    }
    EXPECT_LE(most_live, std::max<size_t>(ArgsSweeper::kFewestToSweep, 2 * kKept) + 100);
    EXPECT_LE(catalog.args.size(), ArgsSweeper::kFewestToSweep + 2 * kKept + 101)
        << "slots are reused, not added";
    EXPECT_GT(sweeper.sweeps(), 10u);
    EXPECT_GT(sweeper.freed(), kEvents - 2 * ArgsSweeper::kFewestToSweep);
    std::string path;
    ASSERT_EQ(recorder.dump(catalog, CaptureEnd{kEvents + 1}, &path), "");
  }
  const auto &kept = dumped[1];
  ASSERT_EQ(kept.size(), kKept);
  for (const auto &[ts, step] : kept)
    ASSERT_EQ(step, ts) << "each kept event's own arguments";
  EXPECT_EQ(kept.front().first, kEvents - kKept + 1);
}

TEST(FlightRecorderOutput, AnAbnormalEndWritesWhatItHolds) {
  Catalog catalog;
  std::map<uint32_t, Recorded> dumps;
  for (const auto &[code, signal] : {std::pair{3, 0}, std::pair{0, 11}}) {
    dumps.clear();
    FlightRecorderOutput recorder({64 * sizeof(prof_event), 0},
                                  [&](uint32_t dump, uint64_t, std::string *) {
                                    return std::make_unique<RecordingOutput>(dumps[dump]);
                                  });
    const auto events = instants({1, 2});
    recorder.sink().consume(events.data(), events.size());
    CaptureEnd end{5};
    end.exit_code = code;
    end.exit_signal = signal;
    EXPECT_EQ(recorder.finish(catalog, end), "");
    ASSERT_EQ(dumps.size(), 1u) << code << " " << signal;
    EXPECT_EQ(dumps[1].ts.size(), 2u);
    EXPECT_EQ(recorder.description(), "recorded");
  }
}

TEST_F(CaptureWindowsTest, DumpingAnOrdinaryWindowSaysThereIsNoFlightRecorder) {
  std::string path;
  EXPECT_FALSE(windows_.dump(CaptureEnd{}, &path).ok) << "nothing is being collected";
  windows_.start(0);
  const WindowResult result = windows_.dump(CaptureEnd{}, &path);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.text,
            "this capture keeps no flight recorder (start it with --flight-recorder SIZE)");
}

} // namespace
} // namespace prof::core
