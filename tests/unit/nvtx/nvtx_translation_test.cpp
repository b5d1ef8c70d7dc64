// NVTX calls made through the real NVTX v3 header become the expected slices
// and instants: the binary defines NVTX's static injection pointer
// (tests/support/nvtx_static_injection.cpp), so its NVTX calls reach the plugin's handlers and a
// recorder on the fake host.
#include "nvtx_handlers.hpp"

#include <prof/testing/fake_source_host.hpp>
#include <prof/tsc_clock.hpp>

#include <gtest/gtest.h>
#include <nvtx3/nvToolsExt.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace prof::nvtx {
namespace {

using Fake = prof::testing::FakeSourceHost;
using annotations::new_lasting_recorder;

class NvtxTranslation : public ::testing::Test {
protected:
  void SetUp() override { set_active_recorder(recorder_); }
  void TearDown() override { set_active_recorder(nullptr); }

  Fake::Slice slice(const std::string &name) const {
    for (const Fake::Slice &s : host_.slices())
      if (s.name == name) return s;
    ADD_FAILURE() << "no slice " << name;
    return {};
  }

  Fake host_{0, prof::testing::HostAbi::current};
  AnnotationRecorder *recorder_ = new_lasting_recorder(Host(host_.api(), &host_), "nvtx");
};

TEST_F(NvtxTranslation, PushedRangesNestOnTheCallingThread) {
  EXPECT_EQ(nvtxRangePushA("outer"), 0);
  EXPECT_EQ(nvtxRangePushW(L"inner \u00e9"), 1);
  EXPECT_EQ(nvtxRangePop(), 1);
  EXPECT_EQ(nvtxRangePop(), 0);
  EXPECT_EQ(nvtxRangePop(), -1);
  const Fake::Slice outer = slice("outer"), inner = slice("inner \u00e9");
  EXPECT_EQ(outer.track, inner.track);
  EXPECT_LE(outer.begin, inner.begin);
  EXPECT_GE(outer.begin + outer.duration, inner.begin + inner.duration);
  EXPECT_EQ(outer.kind, PROF_CATEGORY_ANNOTATION);
  EXPECT_EQ(outer.category, "nvtx");
  const Fake::Track track = host_.track(outer.track);
  EXPECT_EQ(track.kind, PROF_TRACK_THREAD);
  EXPECT_EQ(track.pid, getpid());
  EXPECT_EQ(track.tid, gettid());
}

TEST_F(NvtxTranslation, StartedRangeEndsOnAnotherThreadOnItsStartingTrack) {
  nvtxMarkA("here"); // declares this thread's track
  const nvtxRangeId_t id = nvtxRangeStartA("handed over");
  std::thread([id] { nvtxRangeEnd(id); }).join();
  const Fake::Slice s = slice("handed over");
  ASSERT_EQ(host_.instants().size(), 1u);
  EXPECT_EQ(s.track, host_.instants()[0].track);
  EXPECT_EQ(host_.instants()[0].kind, PROF_CATEGORY_ANNOTATION);
  nvtxRangeEnd(id); // a second end is ignored
  EXPECT_EQ(host_.slices().size(), 1u);
}

TEST_F(NvtxTranslation, AttributesBecomeArguments) {
  nvtxNameCategoryA(7, "io");
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.category = 7;
  a.colorType = NVTX_COLOR_ARGB;
  a.color = 0xFF00FF00;
  a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  a.payload.llValue = -42;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = "load";
  nvtxRangePushEx(&a);
  nvtxRangePop();
  a.category = 8;
  a.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
  a.payload.dValue = 0.5;
  a.message.ascii = "tick";
  nvtxMarkEx(&a);

  const Fake::Slice load = slice("load");
  EXPECT_EQ(load.args.at("category"), "io");
  EXPECT_EQ(load.args.at("color"), "#ff00ff00");
  EXPECT_EQ(load.args.at("payload"), "-42");
  EXPECT_EQ(load.arg_types.at("payload"), PROF_ARG_INT);
  EXPECT_FALSE(load.args.contains("domain"));
  ASSERT_EQ(host_.instants().size(), 1u);
  const Fake::Instant tick = host_.instants()[0];
  EXPECT_EQ(tick.name, "tick");
  EXPECT_EQ(tick.args.at("category"), "8");
  EXPECT_EQ(tick.args.at("payload"), "0.5");
}

TEST_F(NvtxTranslation, DomainsRegisteredStringsAndTheirCategories) {
  nvtxDomainHandle_t train = nvtxDomainCreateA("train");
  nvtxStringHandle_t step = nvtxDomainRegisterStringA(train, "step");
  nvtxDomainNameCategoryA(train, 1, "compute");
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.category = 1;
  a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  a.message.registered = step;
  nvtxDomainRangePushEx(train, &a);
  nvtxRangePushA("default"); // another domain's range above it
  EXPECT_EQ(nvtxDomainRangePop(train), 0);
  EXPECT_EQ(nvtxRangePop(), 0);
  const Fake::Slice s = slice("step");
  EXPECT_EQ(s.category, "nvtx/train");
  EXPECT_EQ(s.args.at("domain"), "train");
  EXPECT_EQ(s.args.at("category"), "compute");
  EXPECT_EQ(slice("default").category, "nvtx");
}

// A flight-recorder dump asks for the ranges open now, on every thread.
TEST_F(NvtxTranslation, OpenRangesOfEveryThreadAreEmittedUntilTheyArePopped) {
  std::mutex mutex;
  std::condition_variable changed;
  int stage = 0; // 1: pushed, 2: main has emitted, 3: popped
  prof_track_id worker_track = 0;
  std::thread worker([&] {
    nvtxDomainHandle_t io = nvtxDomainCreateA("io");
    nvtxEventAttributes_t a{};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "read";
    nvtxRangePushA("done soon");
    nvtxDomainRangePushEx(io, &a);
    EXPECT_EQ(nvtxRangePop(), 0); // "done soon", under "read": "read" moves down
    nvtxRangePushA("inner");
    std::unique_lock lock(mutex);
    stage = 1;
    changed.notify_all();
    changed.wait(lock, [&] { return stage == 2; });
    nvtxRangePop();
    nvtxDomainRangePop(io);
    stage = 3;
    changed.notify_all();
  });
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return stage == 1; });
  }
  const size_t finished = host_.slices().size();
  const uint64_t now = TscClock::now_ns();
  recorder_->emit_unfinished(now);
  std::vector<Fake::Slice> open = host_.slices(); // a copy
  open.erase(open.begin(), open.begin() + static_cast<long>(finished));
  const auto release_worker = [&] {
    if (!worker.joinable()) return;
    {
      std::unique_lock lock(mutex);
      stage = 2;
      changed.notify_all();
      changed.wait(lock, [&] { return stage == 3; });
    }
    worker.join();
  };
  struct ReleaseAtExit {
    const std::function<void()> &release;
    ~ReleaseAtExit() { release(); }
  };
  const std::function<void()> release = release_worker;
  const ReleaseAtExit at_exit{release};
  ASSERT_EQ(open.size(), 2u);
  EXPECT_EQ(open[0].name, "read");
  EXPECT_EQ(open[0].category, "nvtx/io");
  EXPECT_EQ(open[0].args["domain"], "io");
  EXPECT_EQ(open[1].name, "inner");
  EXPECT_FALSE(open[1].args.contains("domain"));
  for (const Fake::Slice &s : open) {
    EXPECT_EQ(s.kind, PROF_CATEGORY_ANNOTATION);
    EXPECT_EQ(s.begin + s.duration, now);
    EXPECT_EQ(s.track, open[0].track);
  }
  EXPECT_LE(open[0].begin, open[1].begin);
  worker_track = open[0].track;
  release_worker();
  EXPECT_EQ(slice("inner").track, worker_track);
  const size_t after = host_.slices().size();
  recorder_->emit_unfinished(TscClock::now_ns());
  EXPECT_EQ(host_.slices().size(), after); // all popped: nothing open
}

TEST_F(NvtxTranslation, NamedOsThreadNamesItsTrack) {
  std::thread([] {
    nvtxNameOsThreadA(static_cast<uint32_t>(gettid()), "loader");
    nvtxMarkA("named");
  }).join();
  ASSERT_EQ(host_.instants().size(), 1u);
  EXPECT_EQ(host_.track(host_.instants()[0].track).name, "loader");
}

TEST_F(NvtxTranslation, NothingIsRecordedWithoutAnActiveRecorder) {
  set_active_recorder(nullptr);
  EXPECT_EQ(nvtxRangePushA("unseen"), -1);
  nvtxRangePop();
  nvtxMarkA("unseen");
  EXPECT_TRUE(host_.slices().empty());
  EXPECT_TRUE(host_.instants().empty());
}

// Interning goes through a small per-thread cache: whatever it holds or
// evicts, a text always comes back as itself with the recorder's one id, on
// any thread, and never as another recorder's.
TEST_F(NvtxTranslation, InternedTextsAreTheRecordersOnEveryThread) {
  std::vector<Text> first;
  for (int i = 0; i < 3 * static_cast<int>(AnnotationRecorder::kCachedTexts); ++i)
    first.push_back(recorder_->intern("message " + std::to_string(i)));
  for (size_t i = 0; i < first.size(); ++i) {
    const std::string text = "message " + std::to_string(i);
    EXPECT_EQ(first[i].text, text);
    const Text again = recorder_->intern(text);
    EXPECT_EQ(again.id, first[i].id);
    EXPECT_EQ(again.text, first[i].text); // the one copy the recorder keeps
  }
  std::thread([&] {
    for (size_t i = 0; i < first.size(); ++i)
      EXPECT_EQ(recorder_->intern("message " + std::to_string(i)).id, first[i].id);
  }).join();
  static Fake other_host{0, prof::testing::HostAbi::current};
  AnnotationRecorder &other = *new_lasting_recorder(Host(other_host.api(), &other_host), "nvtx");
  EXPECT_NE(other.intern("message 0").text, first[0].text);
  EXPECT_NE(recorder_->intern("message 0").text, other.intern("message 0").text);
}

} // namespace
} // namespace prof::nvtx
