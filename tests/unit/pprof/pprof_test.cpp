// The pprof exporter: the built .so loaded as the host loads it and fed CPU
// samples, step annotations and heap stacks by a fake export host; the
// gzipped profile.proto read back field by field.
#include "pprof_exporter.hpp"
#include "profile_builder.hpp"
#include "profile_reader.hpp"
#include "profile_windows.hpp"

#include "tests/support/exporter_plugin_checks.hpp"
#include "tests/support/scratch_dir.hpp"

#include <prof/protobuf_wire.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace prof::pprof {
namespace {

using prof::testing::FakeExportHost;
using prof::testing::LoadedPlugin;
using testing::ReadProfile;
using testing::ReadSample;

using Types = std::vector<std::pair<std::string, std::string>>;
using Frames = std::vector<std::string>;

class PprofExporterTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_NE(plugin_.descriptor(), nullptr);
    ASSERT_NE(plugin_.descriptor()->exporter, nullptr);
  }
  bool run(FakeExportHost &host, const std::vector<prof_event> &events) {
    return prof::testing::export_through_vtable(*plugin_.descriptor()->exporter, host, events);
  }
  ReadProfile read(const std::string &path) {
    const auto bytes = testing::gunzip_file(path);
    EXPECT_TRUE(bytes.has_value()) << path << " is not gzip";
    const auto profile = testing::decode_profile(bytes.value_or(""));
    EXPECT_TRUE(profile.has_value()) << path << " is not a protobuf message";
    return profile.value_or(ReadProfile{});
  }
  static const ReadSample *find(const ReadProfile &p, const Frames &frames,
                                const std::string &tid) {
    for (const ReadSample &s : p.samples)
      if (s.frames == frames && s.labels.count("tid") && s.labels.at("tid") == tid) return &s;
    return nullptr;
  }

  LoadedPlugin plugin_{"pprof"};
  prof::testing::ScratchDir dir_;
};

TEST_F(PprofExporterTest, Descriptor) {
  const prof_plugin_descriptor &d = *plugin_.descriptor();
  prof::testing::expect_common_fields(d, "pprof", PROF_KIND_EXPORTER);
  prof::testing::expect_path_and_overwrite_options(d);
  prof::testing::expect_complete_exporter_vtable(*d.exporter);
  prof::testing::expect_begin_requires_path(*d.exporter, "pprof");
}

TEST_F(PprofExporterTest, CpuSamplesByStackThreadAndStepWithLabels) {
  const std::string path = dir_.file("cpu.pb.gz");
  FakeExportHost host;
  host.set_option("path", path);
  host.set_target(42, "python3 train.py");
  const std::string plugins = "cpu-perf 1.0.0 frequency=250 period=0\n";
  host.session().plugins = plugins.c_str();
  host.session().rank = "3";
  host.session().realtime_anchor_ns = 1'000'000'000'000;
  host.session().monotonic_anchor_ns = 500;
  const prof_track_id process = host.add_track(PROF_TRACK_PROCESS, "python3", 0, 42);
  const prof_track_id main = host.add_track(PROF_TRACK_THREAD, "python3", process, 42, 42);
  const prof_track_id worker = host.add_track(PROF_TRACK_THREAD, "loader", process, 42, 43);
  const prof_stack_id deep = host.add_stack({"step (/t/train.py:9)", "main (/t/train.py:20)"});
  const prof_stack_id shallow = host.add_stack({"main (/t/train.py:20)"});
  const prof_event step = FakeExportHost::with_args(
      host.slice(main, "step", 100, 100), host.add_args({host.uint_arg(PROF_STEP_ARG, 7)}),
      PROF_CATEGORY_ANNOTATION);
  ASSERT_TRUE(run(host, {host.sample(main, 1000, deep), host.sample(main, 120, deep),
                         host.sample(main, 150, deep), step, host.sample(worker, 130, shallow),
                         host.sample(main, 110, 0)}));

  const ReadProfile p = read(path);
  EXPECT_EQ(p.sample_types, (Types{{"samples", "count"}, {"cpu", "nanoseconds"}}));
  EXPECT_EQ(p.period_type, (std::pair<std::string, std::string>{"cpu", "nanoseconds"}));
  EXPECT_EQ(p.period, 4'000'000);
  EXPECT_EQ(p.default_sample_type, "cpu");
  EXPECT_EQ(p.comments, Frames{"prof: python3 train.py"});
  EXPECT_EQ(p.time_nanos, 1'000'000'000'000 - 500 + 100);
  EXPECT_EQ(p.duration_nanos, 900);
  ASSERT_EQ(p.samples.size(), 3u) << "stack 0 is no CPU sample; step 7 splits main's";
  const Frames deep_frames{"step (/t/train.py:9)", "main (/t/train.py:20)"};
  const ReadSample *in_step = nullptr;
  const ReadSample *after = nullptr;
  for (const ReadSample &s : p.samples)
    if (s.frames == deep_frames) (s.labels.count("step") ? in_step : after) = &s;
  ASSERT_NE(in_step, nullptr);
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(in_step->values, (std::vector<int64_t>{2, 8'000'000}));
  EXPECT_EQ(in_step->labels, (std::map<std::string, std::string>{{"host", "host"},
                                                                 {"rank", "3"},
                                                                 {"pid", "42"},
                                                                 {"tid", "42"},
                                                                 {"thread", "python3"},
                                                                 {"step", "7"}}));
  EXPECT_EQ(after->values, (std::vector<int64_t>{1, 4'000'000}));
  const ReadSample *loader = find(p, {"main (/t/train.py:20)"}, "43");
  ASSERT_NE(loader, nullptr);
  EXPECT_EQ(loader->labels.at("thread"), "loader");
  EXPECT_EQ(loader->labels.at("step"), "7") << "a step is its process's, every thread's";
  ASSERT_EQ(p.functions.size(), 2u);
  EXPECT_EQ(p.functions[0].name, "step (/t/train.py:9)");
  EXPECT_EQ(p.functions[0].file, "/t/train.py");
  EXPECT_EQ(p.functions[0].line, 9);
  EXPECT_EQ(host.printed(),
            std::vector<std::string>{"pprof: 4 CPU samples, 0 heap stacks and 0 kernels "
                                     "written to " +
                                     path});
}

TEST_F(PprofExporterTest, HeapStacksLiveAtEndAndAtPeak) {
  const std::string path = dir_.file("heap.pb.gz");
  FakeExportHost host;
  host.set_option("path", path);
  const prof_track_id process = host.add_track(PROF_TRACK_PROCESS, "app", 0, 9);
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "app", process, 9, 9);
  const prof_stack_id grow = host.add_stack({"malloc", "grow", "main"});
  const auto heap_stack = [&](const char *category, uint64_t bytes, uint64_t samples) {
    prof_event e = host.instant(process, "grow", 50);
    e.category = host.intern(category);
    return FakeExportHost::with_args(
        e, host.add_args({host.uint_arg("bytes", bytes), host.uint_arg("error bytes", 10),
                          host.uint_arg("samples", samples),
                          prof::arg_stack(host.intern("stack"), grow)}));
  };
  ASSERT_TRUE(
      run(host, {heap_stack("heap/peak-stack", 4096, 3), heap_stack("heap/leak-stack", 1024, 1),
                 host.sample(thread, 60, host.add_stack({"main"}))}));
  const ReadProfile p = read(path);
  EXPECT_EQ(p.sample_types, (Types{{"samples", "count"},
                                   {"inuse_space", "bytes"},
                                   {"inuse_sampled_blocks", "count"},
                                   {"peak_space", "bytes"},
                                   {"peak_sampled_blocks", "count"}}))
      << "no sampling period known: samples without cpu";
  ASSERT_EQ(p.samples.size(), 3u);
  EXPECT_EQ(p.samples[1].frames, (Frames{"malloc", "grow", "main"}));
  EXPECT_EQ(p.samples[1].values, (std::vector<int64_t>{0, 0, 0, 4096, 3}));
  EXPECT_EQ(p.samples[2].values, (std::vector<int64_t>{0, 1024, 1, 0, 0}));
  EXPECT_EQ(p.samples[2].labels.at("pid"), "9");

  FakeExportHost heap_only;
  const std::string heap_path = dir_.file("heap-only.pb.gz");
  heap_only.set_option("path", heap_path);
  heap_only.set_option("profile", "heap");
  const prof_track_id owner = heap_only.add_track(PROF_TRACK_PROCESS, "app", 0, 9);
  prof_event e = heap_only.instant(owner, "x", 1);
  e.category = heap_only.intern("heap/leak-stack");
  ASSERT_TRUE(
      run(heap_only,
          {FakeExportHost::with_args(
               e, heap_only.add_args(
                      {heap_only.uint_arg("bytes", 64), heap_only.uint_arg("samples", 2),
                       prof::arg_stack(heap_only.intern("stack"), heap_only.add_stack({"f"}))})),
           heap_only.sample(owner, 2, heap_only.add_stack({"g"}))}));
  const ReadProfile only = read(heap_path);
  EXPECT_EQ(only.sample_types.size(), 4u);
  EXPECT_EQ(only.default_sample_type, "inuse_space");
  ASSERT_EQ(only.samples.size(), 1u);
  EXPECT_EQ(only.samples[0].values, (std::vector<int64_t>{64, 2, 0, 0}));
}

TEST_F(PprofExporterTest, RotatesByTimeAndByStepBesideTheWholeProfile) {
  constexpr uint64_t kSecond = 1'000'000'000;
  FakeExportHost host;
  const std::string path = dir_.file("run.pb.gz");
  host.set_option("path", path);
  host.set_option("rotate", "1");
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "main", 0, 5, 5);
  const prof_stack_id stack = host.add_stack({"work"});
  const std::vector<prof_event> samples = {
      host.sample(thread, kSecond / 2, stack), host.sample(thread, kSecond * 3 / 2, stack),
      host.sample(thread, kSecond * 8 / 5, stack), host.sample(thread, kSecond * 9 / 2, stack)};
  ASSERT_TRUE(run(host, samples));
  EXPECT_EQ(dir_.file_names(),
            (std::vector<std::string>{"run-0.pb.gz", "run-1.pb.gz", "run-4.pb.gz", "run.pb.gz"}))
      << "windows of a second from the first event; the empty ones left out";
  EXPECT_EQ(read(dir_.file("run-1.pb.gz")).samples.at(0).values, std::vector<int64_t>{2});
  EXPECT_EQ(read(dir_.file("run-1.pb.gz")).time_nanos, 0) << "no realtime anchor";
  EXPECT_EQ(read(dir_.file("run-4.pb.gz")).samples.at(0).values, std::vector<int64_t>{1});
  EXPECT_EQ(read(path).samples.at(0).values, std::vector<int64_t>{4});

  FakeExportHost steps;
  const std::string step_path = dir_.file("steps.pb.gz");
  steps.set_option("path", step_path);
  steps.set_option("per-step", "true");
  const prof_track_id t = steps.add_track(PROF_TRACK_THREAD, "main", 0, 5, 5);
  const prof_stack_id s = steps.add_stack({"work"});
  const auto step = [&](uint64_t number, uint64_t begin) {
    return FakeExportHost::with_args(steps.slice(t, "step", begin, 10),
                                     steps.add_args({steps.uint_arg(PROF_STEP_ARG, number)}),
                                     PROF_CATEGORY_ANNOTATION);
  };
  ASSERT_TRUE(
      run(steps, {step(7, 100), step(8, 200), steps.sample(t, 105, s), steps.sample(t, 205, s),
                  steps.sample(t, 206, s), steps.sample(t, 300, s)}));
  const ReadProfile seven = read(dir_.file("steps-step7.pb.gz"));
  ASSERT_EQ(seven.samples.size(), 1u);
  EXPECT_EQ(seven.samples[0].values, std::vector<int64_t>{1});
  EXPECT_EQ(seven.comments.back(), "step 7");
  EXPECT_EQ(read(dir_.file("steps-step8.pb.gz")).samples.at(0).values, std::vector<int64_t>{2});
  EXPECT_EQ(read(step_path).samples.size(), 3u) << "steps 7, 8 and none, apart";

  FakeExportHost both;
  both.set_option("path", dir_.file("both.pb.gz"));
  both.set_option("rotate", "5");
  both.set_option("per-step", "true");
  EXPECT_FALSE(run(both, {}));
  EXPECT_EQ(both.errors(),
            std::vector<std::string>{"pprof: options rotate and per-step exclude each other"});
}

TEST(PprofWindows, NamesAndSpans) {
  EXPECT_EQ(window_path("/d/run.pb.gz", "3"), "/d/run-3.pb.gz");
  EXPECT_EQ(window_path("/d/run.prof", "step2"), "/d/run-step2.prof");
  EXPECT_EQ(window_path("/d.x/run", "0"), "/d.x/run-0");
  const auto windows = time_windows(100, 350, 100);
  ASSERT_EQ(windows.size(), 3u);
  EXPECT_EQ(windows[2].begin, 300u);
  EXPECT_TRUE(windows[2].holds(350, -1));
  EXPECT_FALSE(windows[1].holds(300, -1));
  EXPECT_EQ(time_windows(5, 5, 100).size(), 1u);
  const auto steps = step_windows({3, 4}, 0, 9);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_TRUE(steps[0].holds(5, 3));
  EXPECT_FALSE(steps[0].holds(5, 4));
  EXPECT_FALSE(steps[0].holds(5, -1));
}

TEST_F(PprofExporterTest, KernelTimeUnderTheStackThatLaunchedIt) {
  const std::string path = dir_.file("device.pb.gz");
  FakeExportHost host;
  host.set_option("path", path);
  const std::string plugins = "python 1.0.0 sampling=true frequency=1000\n";
  host.session().plugins = plugins.c_str();
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "python3", 0, 5, 5);
  const prof_track_id device = host.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 5, 0, 0);
  const auto kind = [](prof_event e, prof_category category) {
    e.kind = static_cast<uint16_t>(category);
    return e;
  };
  const prof_stack_id python = host.add_stack({"launch (m.py:3)", "main (m.py:9)"});
  ASSERT_TRUE(run(
      host,
      {
          // The sample 0.9 ms before the call is the thread's stack at it.
          host.sample(thread, 100'000, python),
          kind(host.slice(thread, "launchKernel", 1'000'000, 100, "api", 77),
               PROF_CATEGORY_RUNTIME_API),
          kind(host.slice(thread, "driverLaunch", 1'000'010, 50, "api", 77),
               PROF_CATEGORY_DRIVER_API),
          kind(host.slice(device, "matmul", 1'200'000, 500, "kernel", 77), PROF_CATEGORY_KERNEL),
          kind(host.slice(device, "matmul", 1'300'000, 300, "kernel", 77), PROF_CATEGORY_KERNEL),
          // A call long after any sample: the kernel goes under the call alone.
          kind(host.slice(thread, "launchKernel", 9'000'000, 100, "api", 78),
               PROF_CATEGORY_RUNTIME_API),
          kind(host.slice(device, "relu", 9'100'000, 40, "kernel", 78), PROF_CATEGORY_KERNEL),
          kind(host.slice(device, "orphan", 9'200'000, 50, "kernel", 99), PROF_CATEGORY_KERNEL),
      }));
  const ReadProfile p = read(path);
  EXPECT_EQ(p.sample_types,
            (Types{{"samples", "count"}, {"cpu", "nanoseconds"}, {"kernel_time", "nanoseconds"}}));
  std::map<Frames, std::vector<int64_t>> values;
  for (const ReadSample &s : p.samples)
    values[s.frames] = s.values;
  EXPECT_EQ(values.size(), 4u);
  EXPECT_EQ((values[{"matmul", "launchKernel", "launch (m.py:3)", "main (m.py:9)"}]),
            (std::vector<int64_t>{0, 0, 800}))
      << "both matmuls of call 77, under the runtime call, not the driver's";
  EXPECT_EQ((values[{"relu", "launchKernel"}]), (std::vector<int64_t>{0, 0, 40}));
  EXPECT_EQ((values[{"orphan"}]), (std::vector<int64_t>{0, 0, 50}));
  for (const ReadSample &s : p.samples)
    if (s.frames.front() == "matmul") {
      EXPECT_EQ(s.labels.at("device"), "GCU 0");
      EXPECT_EQ(s.labels.at("tid"), "5");
    }

  FakeExportHost only;
  const std::string only_path = dir_.file("only.pb.gz");
  only.set_option("path", only_path);
  only.set_option("profile", "device");
  const prof_track_id gpu = only.add_track(PROF_TRACK_DEVICE, "GPU 0", 0, 0, 0, 0);
  ASSERT_TRUE(run(
      only, {only.sample(only.add_track(PROF_TRACK_THREAD, "t", 0, 1, 1), 5, only.add_stack({"f"})),
             kind(only.slice(gpu, "k", 10, 7, "kernel", 3), PROF_CATEGORY_KERNEL)}));
  const ReadProfile device_only = read(only_path);
  EXPECT_EQ(device_only.sample_types, (Types{{"kernel_time", "nanoseconds"}}));
  EXPECT_EQ(device_only.default_sample_type, "kernel_time");
  ASSERT_EQ(device_only.samples.size(), 1u);
  EXPECT_EQ(device_only.samples[0].values, std::vector<int64_t>{7});
}

TEST(PprofSamplingPeriod, PythonFrequencyThenCpuPerfPeriodThenFrequency) {
  EXPECT_EQ(sampling_period_ns("python 1.0 sampling=true frequency=200\n"
                               "cpu-perf 1.0 frequency=50 period=0"),
            5'000'000);
  EXPECT_EQ(sampling_period_ns("python 1.0 sampling=false frequency=200\n"
                               "cpu-perf 1.0 frequency=50 period=0"),
            20'000'000);
  EXPECT_EQ(sampling_period_ns("cpu-perf 1.0 frequency=50 period=123456"), 123456);
  EXPECT_EQ(sampling_period_ns("osrt 1.0 x=1"), 0);
  EXPECT_EQ(sampling_period_ns(""), 0);
}

TEST(PprofFrameSource, FileAndLineOfPythonFramesOnly) {
  EXPECT_EQ(frame_source("f (/a/b.py:12)").file, "/a/b.py");
  EXPECT_EQ(frame_source("f (/a/b.py:12)").line, 12);
  EXPECT_EQ(frame_source("<lambda> (x.py:3)").file, "x.py");
  EXPECT_EQ(frame_source("libc.so.6+0x1234").file, "");
  EXPECT_EQ(frame_source("operator() (const)").line, 0);
  EXPECT_EQ(frame_source("g (a.py:)").file, "");
}

TEST(ProtobufMessage, EncodesAsProtobufDoes) {
  protobuf::ProtobufMessage m;
  m.varint_field(1, 150); // protobuf's own example: 08 96 01
  m.varint_field(2, 0);   // zero: left out
  m.bytes_field(3, "hi");
  const uint64_t packed[] = {3, 270};
  m.packed_field(4, packed);
  m.int_field(5, -1);
  EXPECT_EQ(m.bytes(), std::string("\x08\x96\x01"
                                   "\x1a\x02hi"
                                   "\x22\x03\x03\x8e\x02"
                                   "\x28\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
                                   23));
}

} // namespace
} // namespace prof::pprof
