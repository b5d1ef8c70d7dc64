#include "tools/prof/cli/plugin_mapping.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include "cli_test_helpers.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace prof::cli {
namespace {

using testing::parse;
using Pairs = std::vector<std::pair<std::string, std::string>>;

const PluginRequest *find(const std::vector<PluginRequest> &requests, std::string_view plugin) {
  for (const auto &request : requests)
    if (request.plugin == plugin) return &request;
  return nullptr;
}

TEST(PluginMapping, CpuUtilizationAlone) {
  auto requests = plugin_requests(parse({"--cpu-utilization", "ls"}));
  const PluginRequest *cpu = find(requests, "cpu-util");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->requested_by, "--cpu-utilization");
  EXPECT_EQ(cpu->options, (Pairs{{"cpu", "true"}, {"memory", "false"}}));
}

TEST(PluginMapping, CpuAndMemoryUtilizationWithFrequency) {
  auto requests = plugin_requests(
      parse({"--memory-utilization", "--utilization-frequency", "50", "--cpu-utilization", "ls"}));
  const PluginRequest *cpu = find(requests, "cpu-util");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->requested_by, "--memory-utilization");
  EXPECT_EQ(cpu->options, (Pairs{{"memory", "true"}, {"cpu", "true"}, {"frequency", "50"}}));
}

TEST(PluginMapping, ModifiersAloneRequestNothing) {
  auto requests =
      plugin_requests(parse({"--utilization-frequency", "50", "--gcu-utilization", "ls"}));
  EXPECT_EQ(find(requests, "cpu-util"), nullptr);
  const PluginRequest *gcu = find(requests, "gcu");
  ASSERT_NE(gcu, nullptr);
  EXPECT_EQ(gcu->options, (Pairs{{"utilization", "true"}}));
}

TEST(PluginMapping, GcuOptions) {
  auto requests = plugin_requests(parse(
      {"--enable-activities", "*/general/operator", "--devices", "0,1", "python3", "r50.py"}));
  const PluginRequest *gcu = find(requests, "gcu");
  ASSERT_NE(gcu, nullptr);
  EXPECT_EQ(gcu->requested_by, "--enable-activities");
  EXPECT_EQ(
      gcu->options,
      (Pairs{{"activities", "*/general/operator"}, {"utilization", "false"}, {"devices", "0,1"}}));
  auto query = plugin_requests(parse({"--query-activities"}));
  ASSERT_EQ(query.size(), 1u);
  EXPECT_EQ(query[0].plugin, "gcu");
  EXPECT_EQ(query[0].options, (Pairs{{"utilization", "false"}}));
}

TEST(PluginMapping, EventsAndMetricsReachTheCounterSource) {
  auto requests = plugin_requests(parse({"--enable-events", "*/*/sippmc/sip_busy_with_wait",
                                         "--devices", "1", "--buffer", "host", "app"}));
  const PluginRequest *pmc = find(requests, "sip-pmc");
  ASSERT_NE(pmc, nullptr);
  EXPECT_EQ(
      pmc->options,
      (Pairs{{"events", "*/*/sippmc/sip_busy_with_wait"}, {"devices", "1"}, {"buffer", "host"}}));
  EXPECT_EQ(find(requests, "gcu"), nullptr);

  // A metric needs the operators, the counters and the table.
  requests = plugin_requests(
      parse({"--metrics", "sip_busy_efficiency_per_op", "--profile-from-start", "off", "app"}));
  for (const char *plugin : {"gcu", "sip-pmc"}) {
    const PluginRequest *request = find(requests, plugin);
    ASSERT_NE(request, nullptr) << plugin;
    EXPECT_EQ(request->requested_by, "--metrics");
    EXPECT_EQ(request->options.front(),
              (std::pair<std::string, std::string>{"metrics", "sip_busy_efficiency_per_op"}));
    // prof's collection windows hold everything back, not the plugins.
    EXPECT_EQ(std::find(request->options.begin(), request->options.end(),
                        std::pair<std::string, std::string>{"from-start", "off"}),
              request->options.end())
        << plugin;
  }
  // The table comes from the GCU family's exporter, not from the summary.
  const PluginRequest *table = find(requests, "gcu-metrics");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->options, (Pairs{{"metrics", "sip_busy_efficiency_per_op"}}));
}

TEST(PluginMapping, Exporters) {
  auto requests = plugin_requests(parse(
      {"--cpu-profiling-callstack", "--print-api-summary", "--print-gcu-trace", "--export-csv",
       "out.csv", "--export-visual-profiler", "vp", "--export-rawdata", "raw.db", "ls"}));
  EXPECT_EQ(find(requests, "cpu-perf")->options,
            (Pairs{{"callstack", "true"}, {"kernel", "false"}}));
  EXPECT_EQ(find(requests, "summary")->options, (Pairs{{"mode", "api"}}));
  EXPECT_FALSE(find(requests, "summary")->implicit);
  EXPECT_EQ(find(requests, "trace")->options, (Pairs{{"scope", "gcu"}}));
  EXPECT_EQ(find(requests, "csv")->options, (Pairs{{"path", "out.csv"}}));
  EXPECT_EQ(find(requests, "perfetto")->options, (Pairs{{"path", "vp"}}));
  // Raw data is the native report: no exporter plugin writes it.
  EXPECT_EQ(find(requests, "sqlite"), nullptr);
}

TEST(PluginMapping, SummaryModes) {
  const std::pair<const char *, const char *> cases[] = {{"--print-summary", "summary"},
                                                         {"--print-gcu-summary", "gcu"},
                                                         {"--print-summary-per-gcu", "per-gcu"},
                                                         {"--print-api-summary", "api"}};
  for (auto [option, mode] : cases) {
    auto requests = plugin_requests(parse({option, "--cpu-utilization", "ls"}));
    EXPECT_EQ(find(requests, "summary")->options, (Pairs{{"mode", mode}})) << option;
    EXPECT_EQ(find(requests, "summary")->requested_by, option);
  }
  EXPECT_EQ(
      find(plugin_requests(parse({"--print-trace", "--cpu-utilization", "ls"})), "trace")->options,
      (Pairs{{"scope", "all"}}));
}

TEST(PluginMapping, DefaultSummary) {
  auto requests = plugin_requests(parse({"--cpu-utilization", "ls"}));
  const PluginRequest *summary = find(requests, "summary");
  ASSERT_NE(summary, nullptr);
  EXPECT_TRUE(summary->implicit);
  EXPECT_EQ(summary->options, (Pairs{{"mode", "summary"}}));
  EXPECT_EQ(find(plugin_requests(parse({"--quiet", "--cpu-utilization", "ls"})), "summary"),
            nullptr);
  EXPECT_EQ(find(plugin_requests(parse({"--print-trace", "--cpu-utilization", "ls"})), "summary"),
            nullptr);
  EXPECT_NE(find(plugin_requests(parse({"--import-profile", "r.profrep"})), "summary"), nullptr);
  EXPECT_EQ(find(plugin_requests(
                     parse({"--flight-recorder", "32M", "--cpu-utilization", "-o", "r", "ls"})),
                 "summary"),
            nullptr)
      << "a flight recorder writes its dumps only";
  EXPECT_TRUE(plugin_requests(parse({"--plugin-list"})).empty());
  EXPECT_TRUE(plugin_requests(parse({"--stop"})).empty());
}

TEST(PluginMapping, PluginSpecsWinAndMerge) {
  auto requests =
      plugin_requests(parse({"--cpu-utilization", "--utilization-frequency", "20", "--plugin",
                             "cpu-util frequency=77", "--plugin", "osrt threshold=10", "ls"}));
  const PluginRequest *cpu = find(requests, "cpu-util");
  EXPECT_EQ(cpu->options, (Pairs{{"cpu", "true"}, {"memory", "false"}, {"frequency", "77"}}));
  EXPECT_EQ(cpu->requested_by, "--cpu-utilization");
  const PluginRequest *osrt = find(requests, "osrt");
  ASSERT_NE(osrt, nullptr);
  EXPECT_EQ(osrt->requested_by, "--plugin");
  EXPECT_EQ(osrt->options, (Pairs{{"threshold", "10"}}));
}

TEST(PluginMapping, TraceAndSample) {
  auto requests = plugin_requests(parse({"-t", "osrt,nvtx", "-s", "system-wide", "ls"}));
  ASSERT_NE(find(requests, "osrt"), nullptr);
  EXPECT_EQ(find(requests, "nvtx")->requested_by, "--trace");
  EXPECT_EQ(find(requests, "cpu-perf")->options,
            (Pairs{{"scope", "system-wide"}, {"callstack", "true"}, {"kernel", "false"}}));
  EXPECT_EQ(find(plugin_requests(parse({"-s", "none", "--cpu-utilization", "ls"})), "cpu-perf"),
            nullptr);
}

TEST(PluginMapping, TuningOptionsReachPluginsAskedForByTraceOrPlugin) {
  auto requests = plugin_requests(
      parse({"-t", "osrt", "--osrt-threshold", "500", "--plugin", "cpu-perf frequency=50",
             "--sampling-frequency", "1000", "--backtrace", "dwarf", "--nic-metrics", "true",
             "--nic-metrics-frequency", "200", "ls"}));
  EXPECT_EQ(find(requests, "osrt")->options, (Pairs{{"threshold", "500"}}));
  // The --plugin key wins over the option that tunes the same key.
  EXPECT_EQ(find(requests, "cpu-perf")->options,
            (Pairs{{"frequency", "50"}, {"backtrace", "dwarf"}}));
  EXPECT_EQ(find(requests, "nic")->options, (Pairs{{"frequency", "200"}}));
  EXPECT_EQ(
      find(plugin_requests(parse({"--nic-metrics", "false", "--cpu-utilization", "ls"})), "nic"),
      nullptr);
}

TEST(PluginMapping, MemoryProfileAndKernelCallstack) {
  auto requests = plugin_requests(
      parse({"--memory-profile", "--kernel-callstack", "--cpu-profiling-frequency", "10", "ls"}));
  EXPECT_TRUE(find(requests, "memory")->options.empty());
  EXPECT_EQ(find(requests, "cpu-perf")->options,
            (Pairs{{"kernel", "true"}, {"callstack", "false"}, {"frequency", "10"}}));
  // Events, as its word or after '='; the word is not taken for the application.
  for (const auto &args : std::vector<std::vector<std::string>>{
           {"--memory-profile", "events", "ls"}, {"--memory-profile=events", "ls"}}) {
    const CommandLine command = parse(args);
    EXPECT_EQ(command.app, std::vector<std::string>{"ls"});
    EXPECT_EQ(find(plugin_requests(command), "memory")->options, (Pairs{{"profile", "events"}}));
  }
  EXPECT_EQ(parse({"--memory-profile", "./events", "x"}).app,
            (std::vector<std::string>{"./events", "x"}));
  try {
    parse({"--memory-profile=all", "ls"});
    ADD_FAILURE() << "--memory-profile=all accepted";
  } catch (const UsageError &e) {
    EXPECT_STREQ(e.what(), "prof: --memory-profile 'all' is not valid: expected events");
  }
}

TEST(PluginMapping, PythonFramesComeWithCpuCallStacksOfAProcessTree) {
  auto requests =
      plugin_requests(parse({"-s", "process-tree", "--sampling-frequency", "1000", "ls"}));
  const PluginRequest *python = find(requests, "python");
  ASSERT_NE(python, nullptr);
  EXPECT_TRUE(python->implicit) << "a build without it samples natively, without a word";
  EXPECT_EQ(python->requested_by, "--sample");
  EXPECT_EQ(python->options, (Pairs{{"frequency", "1000"}}));
  // A --plugin frequency for cpu-perf is python's too: one rate for both.
  requests = plugin_requests(parse({"--plugin", "cpu-perf frequency=50", "ls"}));
  ASSERT_NE(find(requests, "python"), nullptr);
  EXPECT_EQ(find(requests, "python")->options, (Pairs{{"frequency", "50"}}));

  for (const auto &args : std::vector<std::vector<std::string>>{
           {"-s", "process-tree", "--python-sampling", "false", "ls"},
           {"-s", "system-wide", "ls"},
           {"-s", "process-tree", "--backtrace", "none", "ls"},
           {"--memory-profile", "--kernel-callstack", "ls"}, // callstack=false
           {"--cpu-utilization", "ls"}}) {
    EXPECT_EQ(find(plugin_requests(parse(args)), "python"), nullptr) << args[1];
  }
}

TEST(PluginMapping, PythonSamplingFrequencyIsPythonsOwnRate) {
  auto requests = plugin_requests(parse({"-s", "process-tree", "--sampling-frequency", "1000",
                                         "--python-sampling-frequency", "200", "ls"}));
  EXPECT_EQ(find(requests, "python")->options, (Pairs{{"frequency", "200"}}));
  EXPECT_EQ(find(requests, "cpu-perf")->options, (Pairs{{"scope", "process-tree"},
                                                        {"callstack", "true"},
                                                        {"kernel", "false"},
                                                        {"frequency", "1000"}}));
  requests = plugin_requests(parse({"--python-sampling", "true", "--sampling-frequency", "500",
                                    "--python-sampling-frequency", "200", "ls"}));
  EXPECT_EQ(find(requests, "python")->options, (Pairs{{"sampling", "true"}, {"frequency", "200"}}));
}

TEST(PluginMapping, APythonProgramsTreeIsSampledByThePythonSourceAlone) {
  const auto python_app = [] { return true; };
  auto requests =
      plugin_requests(parse({"-s", "process-tree", "--sampling-frequency", "1000", "python3"}));
  ASSERT_TRUE(let_python_sample_the_tree(requests, python_app));
  EXPECT_EQ(find(requests, "python")->options, (Pairs{{"frequency", "1000"}, {"native", "true"}}));
  EXPECT_EQ(
      find(requests, "cpu-perf")->options,
      (Pairs{
          {"scope", "none"}, {"callstack", "true"}, {"kernel", "false"}, {"frequency", "1000"}}));
  // Asked for outright, the same.
  requests = plugin_requests(parse({"-s", "process-tree", "--python-sampling", "true", "python3"}));
  EXPECT_TRUE(let_python_sample_the_tree(requests, python_app));

  // Not a Python program: both sample, the python source only in Python processes.
  requests = plugin_requests(parse({"-s", "process-tree", "bash"}));
  EXPECT_FALSE(let_python_sample_the_tree(requests, [] { return false; }));
  EXPECT_EQ(find(requests, "cpu-perf")->options[0],
            (std::pair<std::string, std::string>{"scope", "process-tree"}));
  EXPECT_EQ(find(requests, "python")->options, Pairs{});

  // What only cpu-perf gives keeps it sampling; the program is then not even looked at.
  for (const auto &args : std::vector<std::vector<std::string>>{
           {"-s", "process-tree", "--kernel-callstack", "python3"},
           {"-s", "process-tree", "--sample-period", "100000", "python3"},
           {"-s", "process-tree", "--python-sampling-frequency", "200", "python3"},
           {"-s", "system-wide", "--python-sampling", "true", "python3"},
           {"--plugin", "cpu-perf counters=cycles", "python3"},
           {"--plugin", "python native=false", "-s", "process-tree", "python3"},
           {"--python-sampling", "true", "python3"}}) {
    requests = plugin_requests(parse(args));
    bool asked = false;
    EXPECT_FALSE(let_python_sample_the_tree(requests, [&] { return asked = true; })) << args[1];
    EXPECT_FALSE(asked) << args[1];
  }
}

TEST(PluginMapping, PythonSamplingTrueAsksForItAlone) {
  auto requests = plugin_requests(parse({"--python-sampling", "true", "ls"}));
  const PluginRequest *python = find(requests, "python");
  ASSERT_NE(python, nullptr);
  EXPECT_FALSE(python->implicit);
  EXPECT_EQ(python->options, (Pairs{{"sampling", "true"}}));
  EXPECT_EQ(find(requests, "cpu-perf"), nullptr);
}

TEST(PluginMapping, PythonFunctionsTraceAsksForPythonWithoutSamplingItsOwn) {
  auto requests = plugin_requests(parse({"--python-functions-trace", "pytorch", "ls"}));
  const PluginRequest *python = find(requests, "python");
  ASSERT_NE(python, nullptr);
  EXPECT_FALSE(python->implicit);
  EXPECT_EQ(python->requested_by, "--python-functions-trace");
  EXPECT_EQ(python->options, (Pairs{{"functions", "pytorch"}, {"sampling", "false"}}));
  // With CPU call stacks it samples too, at cpu-perf's rate.
  requests = plugin_requests(parse({"-s", "process-tree", "--sampling-frequency", "1000",
                                    "--python-functions-trace", "pytorch", "ls"}));
  EXPECT_EQ(find(requests, "python")->options,
            (Pairs{{"frequency", "1000"}, {"functions", "pytorch"}}));
  EXPECT_FALSE(find(requests, "python")->implicit);
  requests = plugin_requests(parse({"-s", "process-tree", "--python-sampling", "false",
                                    "--python-functions-trace", "pytorch", "ls"}));
  EXPECT_EQ(find(requests, "python")->options,
            (Pairs{{"functions", "pytorch"}, {"sampling", "false"}}));
  requests = plugin_requests(parse(
      {"--python-functions-trace", "pytorch", "--python-functions-threshold", "80000", "ls"}));
  EXPECT_EQ(find(requests, "python")->options,
            (Pairs{{"functions", "pytorch"}, {"sampling", "false"}, {"threshold", "80000"}}));
  // A bad list is the user's error, before anything runs.
  EXPECT_THROW(plugin_requests(parse({"--python-functions-trace", "pytorch,", "ls"})), UsageError);
}

TEST(PluginMapping, PytorchModesAskForTheTorchSource) {
  auto requests = plugin_requests(parse({"--pytorch", "autograd-nvtx", "ls"}));
  const PluginRequest *torch = find(requests, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->requested_by, "--pytorch");
  EXPECT_TRUE(torch->options.empty());
  EXPECT_EQ(find(requests, "python"), nullptr);

  requests = plugin_requests(parse({"--pytorch=autograd-shapes-nvtx", "ls"}));
  EXPECT_EQ(find(requests, "torch")->options, (Pairs{{"shapes", "true"}}));

  // The functions-trace modes add the function trace's pytorch set.
  requests = plugin_requests(parse({"--pytorch", "functions-trace-shapes", "ls"}));
  EXPECT_EQ(find(requests, "torch")->options, (Pairs{{"shapes", "true"}}));
  ASSERT_NE(find(requests, "python"), nullptr);
  EXPECT_EQ(find(requests, "python")->options,
            (Pairs{{"functions", "pytorch"}, {"sampling", "false"}}));
  // ... unless the functions were chosen.
  requests = plugin_requests(
      parse({"--plugin", "python functions=mod:f", "--pytorch", "functions-trace", "ls"}));
  EXPECT_EQ(find(requests, "python")->options, (Pairs{{"functions", "mod:f"}}));

  EXPECT_EQ(find(plugin_requests(parse({"--pytorch", "none", "ls"})), "torch"), nullptr);
  EXPECT_THROW(parse({"--pytorch", "autograd", "ls"}), UsageError);
}

TEST(PluginMapping, TorchIsATraceItem) {
  const auto requests = plugin_requests(parse({"-t", "torch,osrt", "ls"}));
  ASSERT_NE(find(requests, "torch"), nullptr);
  EXPECT_EQ(find(requests, "torch")->requested_by, "--trace");
}

TEST(PluginMapping, EveryMappedOptionExists) {
  for (const auto &mapping : option_mappings())
    EXPECT_NE(find_option(mapping.option), nullptr) << mapping.option;
}

} // namespace
} // namespace prof::cli
