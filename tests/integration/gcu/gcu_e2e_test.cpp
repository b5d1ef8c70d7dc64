// End-to-end tests of the gcu and sip-pmc sources on gcusim: the real prof
// binary captures the example programs; the tests read what it printed and
// what the report holds.
#include "gcu_e2e_fixture.hpp"
#include "gcu_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace prof::e2e {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

TEST_F(GcuE2E, QueryActivitiesPrintsTopsprofsDeviceTree) {
  const RunResult r = prof({"--query-activities"}, {"GCUSIM_DEVICES=4"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 15u) << r.out;
  EXPECT_EQ(lines[0], "==== Device(0 ~ 3):");
  EXPECT_EQ(lines[1], "Cluster(0 ~ 3):");
  EXPECT_EQ(lines[2], "CDMA(0 ~ 3):DMA VC Execution,DMA Busy");
  EXPECT_THAT(lines, Contains("SIP(0 ~ 5):SIP Busy"));
  EXPECT_THAT(lines, Contains("SIPPMC(0 ~ 5):"));
  EXPECT_THAT(lines, Contains("ClusterLite(0 ~ 1):"));
  EXPECT_THAT(lines, Contains("General(0 ~ 0):Task Pipeline,Launch Kernel,Operator,Memory"));
  EXPECT_THAT(lines, Contains("==== Api Trace:"));
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string &l) {
    return l.rfind("RUNTIME(0 ~ 0):gcuInit,", 0) == 0 && l.find("gcuLaunchKernel") != std::string::npos;
  })) << r.out;
}

TEST_F(GcuE2E, QueryEventsListsTheSipCounters) {
  const RunResult r = prof({"--query-events"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(split_lines(r.out), Contains("SIPPMC(0 ~ 5):sip_busy_without_wait,sip_busy_with_wait,"
                                           "sip_instructions,sip_stall_cycles"));
  EXPECT_THAT(split_lines(r.out), Contains("==== Device(0 ~ 1):"));
}

TEST_F(GcuE2E, BadFilterStringStopsBeforeTheApplicationRuns) {
  const RunResult r = prof({"--enable-activities", "0/cluster9/sip/*", "-o", "r", kAdd});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("cluster9"));
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("PROF is profiling"))) << r.out;
  EXPECT_FALSE(fs::exists(report()));
}

TEST_F(GcuE2E, OutOfRangeBufferSizeIsAUsageError) {
  const RunResult r = prof({"--enable-activities", "all", "--device-buffer-size", "65", kAdd});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("device-buffer-size"));
}

TEST_F(GcuE2E, TrainingStepStatisticsListEveryKernel) {
  const RunResult r = prof({"--enable-activities", "*/general/operator|Api Trace/RUNTIME/*", "-o",
                            "r", kTrain, "--steps", "2", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto lines = unprefixed(r.out);
  const auto table = std::find_if(lines.begin(), lines.end(), [](const std::string &l) {
    return l.rfind("GCU activites:", 0) == 0;
  });
  ASSERT_NE(table, lines.end()) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Time(%)"));
  for (const char *kernel : {"common20_conv_dtu", "batch_norm_training_dtu", "batch_norm_grad_dtu",
                             "elementwise_fusion_dtu", "dot_dtu"})
    EXPECT_THAT(r.out, HasSubstr(kernel));

  const GcuReport rep = read_gcu_report(report());
  std::map<std::string, int> operators;
  for (const DeviceSlice &s : rep.device)
    if (s.activity == "Operator") ++operators[s.name];
  int launches = 0;
  for (const HostSlice &s : rep.host)
    if (s.name == "gcuLaunchKernel") ++launches;
  int total = 0;
  for (const auto &[name, count] : operators) total += count;
  EXPECT_GT(launches, 10);
  EXPECT_EQ(total, launches) << "one Operator per launch";
}

TEST_F(GcuE2E, ApiCallsAndTheirKernelsAreTiedAndInOrderDespiteClockDrift) {
  // A device clock far from the host's, running 0.5% fast: only a correct
  // conversion puts each kernel after the call that launched it.
  const RunResult r = prof({"--enable-activities", "*/general/operator|Api Trace/RUNTIME/*", "-o",
                            "r", kTrain, "--steps", "2", "--quiet"},
                           {"GCUSIM_CLOCK_DRIFT_PPM=5000", "GCUSIM_CLOCK_HZ=1.7e9",
                            "GCUSIM_CLOCK_OFFSET=123456789012345"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const GcuReport rep = read_gcu_report(report());
  std::map<uint64_t, const HostSlice *> calls;
  for (const HostSlice &s : rep.host)
    if (s.category == "api" && s.id != 0) calls[s.id] = &s;
  int checked = 0;
  for (const DeviceSlice &s : rep.device) {
    if (s.activity != "Operator") continue;
    auto call = calls.find(s.id);
    ASSERT_NE(call, calls.end()) << s.name << " has no launching call";
    EXPECT_EQ(call->second->name, "gcuLaunchKernel");
    // Slack for the calibration's error: 50 us.
    EXPECT_GE(s.ts + 50000, call->second->ts) << s.name << " starts before its launch";
    EXPECT_EQ(rep.flow_begins.count(s.id), 1u);
    EXPECT_EQ(rep.flow_ends.count(s.id), 1u);
    ++checked;
  }
  EXPECT_GT(checked, 10);
  // Flows exist only where both ends were recorded: calls that queued no
  // work (gcuMalloc) or whose work was not selected (copies) have none.
  EXPECT_EQ(rep.flow_begins.size(), rep.flow_ends.size());
  for (const auto &[flow, count] : rep.flow_begins) {
    EXPECT_EQ(count, 1) << flow;
    EXPECT_EQ(rep.flow_ends.count(flow), 1u) << flow;
  }
}

TEST_F(GcuE2E, KernelDurationsMatchTheTimeTheirBodiesTook) {
  // Kernels of ~20 ms: a scheduler quantum lost between the device model's
  // clock read and the body (six SIP threads share the cores) stays under 10%.
  const RunResult r = prof({"--enable-activities", "*/general/operator", "-o", "r", kAdd, "--size",
                            "12000000", "--iterations", "5", "--timings"},
                           {"GCUSIM_CLOCK_DRIFT_PPM=-3000"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::vector<double> body_ns;
  static const std::regex timing(R"(kernel elementwise_add_dtu (\d+) ns)");
  for (const std::string &line : split_lines(r.out)) {
    std::smatch m;
    if (std::regex_search(line, m, timing)) body_ns.push_back(std::stod(m[1]));
  }
  ASSERT_EQ(body_ns.size(), 5u) << r.out;
  const GcuReport rep = read_gcu_report(report());
  std::vector<const DeviceSlice *> kernels;
  for (const DeviceSlice &s : rep.device)
    if (s.activity == "Operator") kernels.push_back(&s);
  std::sort(kernels.begin(), kernels.end(),
            [](const DeviceSlice *a, const DeviceSlice *b) { return a->ts < b->ts; });
  ASSERT_EQ(kernels.size(), 5u);
  for (size_t i = 0; i < kernels.size(); ++i) {
    EXPECT_EQ(kernels[i]->name, "elementwise_add_dtu");
    EXPECT_NEAR(static_cast<double>(kernels[i]->duration), body_ns[i], body_ns[i] * 0.10)
        << "kernel " << i;
  }
}

TEST_F(GcuE2E, TinyDeviceBufferWithSlowDrainCountsEveryDrop) {
  const RunResult r = prof({"--enable-activities", "all", "--device-buffer-size", "1", "-o", "r",
                            kAdd, "--size", "256", "--iterations", "4000"},
                           {"GCUSIM_DMA_INTERVAL_MS=5000"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.err + r.out, HasSubstr("device records were dropped"));
  const GcuReport rep = read_gcu_report(report());
  double produced = 0, dropped = 0;
  for (const CounterSample &c : rep.counters) {
    if (c.name == "GCU records produced") produced += c.value;
    if (c.name == "GCU records dropped") dropped += c.value;
  }
  EXPECT_GT(dropped, 0);
  // Each record kept is a slice, or an instant (an allocation or free).
  EXPECT_EQ(static_cast<double>(rep.device.size() + rep.device_instants), produced - dropped)
      << "produced " << produced << ", dropped " << dropped;
}

TEST_F(GcuE2E, PerOpSipEfficiencyTableForTheElementwiseAdd) {
  const RunResult r = prof({"--metrics", "sip_busy_efficiency_per_op", kAdd});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto lines = unprefixed(r.out);
  const auto title = std::find(lines.begin(), lines.end(), "======== Sip busy efficiency(Per-op Mode)");
  ASSERT_NE(title, lines.end()) << r.out;
  ASSERT_GE(lines.end() - title, 10);
  EXPECT_THAT(title[1], HasSubstr("Index"));
  EXPECT_THAT(title[1], HasSubstr("OP ID"));
  EXPECT_THAT(title[2], HasSubstr("sip_busy_without_wait"));
  EXPECT_THAT(title[3], HasSubstr("elementwise_add_dtu"));
  static const std::regex sip_row(R"(^sip:0:\d:(\d)\s+(\d+)\s+(\d+)\s+([0-9.]+)%$)");
  std::set<int> sips;
  for (int i = 4; i < 10; ++i) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(title[i], m, sip_row)) << title[i];
    sips.insert(std::stoi(m[1]));
    EXPECT_LE(std::stoull(m[2]), std::stoull(m[3]));
    EXPECT_GT(std::stod(m[4]), 0.0);
    EXPECT_LE(std::stod(m[4]), 100.0);
  }
  EXPECT_EQ(sips.size(), 6u);
}

TEST_F(GcuE2E, ExplicitActivitiesReplaceTheMetricsDefaults) {
  // topsprof rule 4.5: --enable-activities overrides the metric's operators.
  const RunResult r = prof({"--metrics", "sip_busy_efficiency_per_op", "--enable-activities",
                            "*/*/sip/SIP Busy", "-o", "r", kAdd});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const GcuReport rep = read_gcu_report(report());
  ASSERT_FALSE(rep.device.empty());
  for (const DeviceSlice &s : rep.device) EXPECT_EQ(s.activity, "SIP Busy") << s.path;
  EXPECT_TRUE(std::any_of(rep.counters.begin(), rep.counters.end(),
                          [](const CounterSample &c) { return c.name == "sip_busy_with_wait"; }));
  EXPECT_THAT(r.out, HasSubstr("no operator carried SIP counters"));
}

TEST_F(GcuE2E, PerGcuSummarySplitsDevices) {
  const RunResult r = prof({"--enable-activities", "*/general/operator", "--print-summary-per-gcu",
                            kTrain, "--steps", "1", "--devices", "2", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("Profiling result (GCU 0):"));
  EXPECT_THAT(r.out, HasSubstr("Profiling result (GCU 1):"));
}

TEST_F(GcuE2E, GcuTraceListsActivitiesFromTheFirstOne) {
  const RunResult r = prof({"--print-gcu-trace", "--enable-activities", "*/general/operator", kAdd,
                            "--iterations", "3", "--size", "100000"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto lines = unprefixed(r.out);
  const auto header = std::find_if(lines.begin(), lines.end(), [](const std::string &l) {
    return l.find("Start") != std::string::npos && l.find("Duration") != std::string::npos;
  });
  ASSERT_NE(header, lines.end()) << r.out;
  ASSERT_GE(lines.end() - header, 4);
  EXPECT_THAT(header[1], HasSubstr("0.00ns"));
  for (int i = 1; i <= 3; ++i) EXPECT_THAT(header[i], HasSubstr("elementwise_add_dtu"));
}

TEST_F(GcuE2E, DevicesOptionRestrictsTheCaptureAndMustAgreeWithTheFilter) {
  RunResult r = prof({"--enable-activities", "0/general/operator", "--devices", "1", kAdd});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("--devices"));
  r = prof({"--enable-activities", "*/general/operator", "--devices", "1", "-o", "r", kTrain,
            "--steps", "1", "--devices", "2", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const GcuReport rep = read_gcu_report(report());
  ASSERT_FALSE(rep.device.empty());
  for (const DeviceSlice &s : rep.device) EXPECT_EQ(s.device, 1) << s.path;
}

TEST_F(GcuE2E, ExportedTreeEditedAndImportedSelectsWhatWasChecked) {
  RunResult r = prof({"--export-activities", "tree.json"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::string tree = prof::testing::file_text(dir_ / "tree.json");
  ASSERT_THAT(tree, HasSubstr("\"isCheck\": false"));
  // Check the first "Operator" leaf: device 0's General engine.
  const size_t op = tree.find("\"name\": \"Operator\"");
  ASSERT_NE(op, std::string::npos);
  const size_t check = tree.find("\"isCheck\": false", op);
  ASSERT_NE(check, std::string::npos);
  tree.replace(check, 16, "\"isCheck\": true");
  std::ofstream(dir_ / "tree.json", std::ios::trunc) << tree;
  r = prof({"--import-activities", "tree.json", "-o", "r", kTrain, "--steps", "1", "--devices",
            "2", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const GcuReport rep = read_gcu_report(report());
  ASSERT_FALSE(rep.device.empty());
  for (const DeviceSlice &s : rep.device) {
    EXPECT_EQ(s.device, 0) << s.path;
    EXPECT_EQ(s.activity, "Operator");
  }
  r = prof({"--export-activities", "tree.json"});
  EXPECT_EQ(r.exit_code, 2) << "an existing file needs --force-overwrite: " << r.describe();
}

TEST_F(GcuE2E, ProfileFromStartOffRecordsNothingWithoutAStart) {
  const RunResult r = prof({"--profile-from-start", "off", "--enable-activities",
                            "*/general/operator|Api Trace/RUNTIME/*", "-o", "r", kAdd});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_FALSE(fs::exists(report())) << r.describe();
}

TEST_F(GcuE2E, ProfilerApiRangeKeepsOneStepOfDeviceWorkAndItsCalls) {
  const std::string filter = "*/general/operator|Api Trace/RUNTIME/*";
  const RunResult whole = prof({"--enable-activities", filter, "-o", "whole", kTrain, "--steps",
                                "3", "--quiet"});
  ASSERT_EQ(whole.exit_code, 0) << whole.describe();
  const RunResult r = prof({"--enable-activities", filter, "--capture-range", "profiler-api", "-o",
                            "r", kTrain, "--steps", "3", "--profile-step", "2", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const GcuReport all = read_gcu_report(dir_ / "whole.profrep");
  const GcuReport step = read_gcu_report(report());
  ASSERT_FALSE(all.device.empty());
  // Each step launches the same kernels: one third of them fall in the range.
  EXPECT_EQ(step.device.size() * 3, all.device.size()) << r.describe();
  const auto launches = [](const GcuReport &rep) {
    return std::count_if(rep.host.begin(), rep.host.end(),
                         [](const HostSlice &s) { return s.name == "gcuLaunchKernel"; });
  };
  EXPECT_EQ(launches(step) * 3, launches(all));
  // The device work follows the launches of the range.
  const auto first_launch = std::min_element(step.host.begin(), step.host.end(), [](auto &a, auto &b) {
    return a.ts < b.ts;
  });
  ASSERT_NE(first_launch, step.host.end());
  for (const auto &slice : step.device) EXPECT_GE(slice.ts, first_launch->ts);
}

TEST_F(GcuE2E, UtilizationCountersFollowTheWork) {
  const RunResult r = prof({"--gcu-utilization", "--gcu-utilization-frequency", "200", "-o", "r",
                            kTrain, "--steps", "3", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const GcuReport rep = read_gcu_report(report());
  double device_max = 0, cluster_max = 0;
  int samples = 0;
  for (const CounterSample &c : rep.counters) {
    if (c.name.find("utilization") == std::string::npos) continue;
    ++samples;
    EXPECT_GE(c.value, 0.0);
    EXPECT_LE(c.value, 100.0);
    if (c.name == "GCU 0 utilization") device_max = std::max(device_max, c.value);
    if (c.name.rfind("Cluster ", 0) == 0) cluster_max = std::max(cluster_max, c.value);
  }
  EXPECT_GT(samples, 20);
  EXPECT_GT(device_max, 0.0);
  EXPECT_GT(cluster_max, 0.0);
}

} // namespace
} // namespace prof::e2e
