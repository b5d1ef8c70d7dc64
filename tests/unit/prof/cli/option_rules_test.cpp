#include "cli_test_helpers.hpp"

#include <gtest/gtest.h>

#include <map>

namespace prof::cli {
namespace {

using testing::error_of;
using testing::parse;
using Args = std::vector<std::string>;

/// A command-line word list for option `name`, with a value when it takes one.
Args option_args(std::string_view name) {
  static const std::map<std::string_view, std::string> kValues = {
      {"profile-from-start", "off"},
      {"buffer", "host"},
      {"show-output", "true"},
      {"sample", "process-tree"},
      {"trace", "osrt"},
      {"pytorch", "autograd-nvtx"},
      {"devices", "0"},
      {"session", "s1"},
      {"session-new", "s2"},
      {"device-buffer-size", "8"},
      {"host-buffer-size", "8"},
      {"host-ringbuffer-size", "8"},
      {"watermark-threshold", "4"},
      {"cpu-profiling-frequency", "10"},
      {"utilization-frequency", "10"},
      {"gcu-utilization-frequency", "10"},
      {"gpu-metrics-frequency", "10"},
      {"cuda-memory-usage", "false"},
      {"cuda-graph-trace", "graph"},
      {"sampling-frequency", "1000"},
      {"sample-period", "100000"},
      {"backtrace", "dwarf"},
      {"sample-backtrace-depth", "16"},
      {"osrt-threshold", "500"},
      {"capture-steps", "2"},
      {"at-step", "3"},
      {"osrt-backtrace-threshold", "100000"},
      {"osrt-backtrace-depth", "8"},
      {"nic-metrics", "true"},
      {"python-sampling", "true"},
      {"python-sampling-frequency", "500"},
      {"python-backtrace", "false"},
      {"nic-device-include", "eth.*,ib.*"},
      {"capture-range", "profiler-api"},
      {"annotation-capture", "step@train"},
      {"capture-range-end", "repeat:2"},
      {"trace-rotation", "3"},
      {"env-var", "A=1,B=2"},
      {"inherit-environment", "false"},
      {"wait", "primary"},
      {"delay", "0.5"},
      {"nic-metrics-frequency", "100"}};
  const OptionSpec *spec = find_option(name);
  if (!spec) ADD_FAILURE() << "no option " << name;
  Args args{"--" + std::string(name)};
  if (spec && takes_value(*spec)) {
    auto it = kValues.find(name);
    args.push_back(it != kValues.end() ? it->second : "x.file");
  }
  return args;
}

Args concat(std::initializer_list<Args> parts) {
  Args out;
  for (const auto &part : parts)
    out.insert(out.end(), part.begin(), part.end());
  return out;
}

TEST(OptionRules, EveryConflictGroupPairIsRefused) {
  for (const auto &group : conflict_groups()) {
    for (std::size_t i = 0; i < group.size(); ++i) {
      for (std::size_t j = i + 1; j < group.size(); ++j) {
        const Args args = concat({option_args(group[i]), option_args(group[j]), {"ls"}});
        EXPECT_EQ(error_of(args), "prof: --" + std::string(group[i]) + " and --" +
                                      std::string(group[j]) + " cannot be used together")
            << group[i] << " / " << group[j];
      }
    }
  }
}

TEST(OptionRules, ConflictMessagesFromTopsprof) {
  EXPECT_EQ(error_of({"--import-rawdata", "a", "--import-profile", "b"}),
            "prof: --import-rawdata and --import-profile cannot be used together");
  EXPECT_EQ(error_of({"--print-summary", "--print-api-summary", "--print-gcu-summary",
                      "--cpu-utilization", "ls"}),
            "prof: --print-api-summary, --print-gcu-summary and --print-summary cannot be used "
            "together");
  EXPECT_EQ(
      error_of({"--import-profile", "a", "--export-profile", "b", "--export-visual-profiler", "c"}),
      "prof: --import-profile, --export-profile and --export-visual-profiler cannot be "
      "used together");
  EXPECT_EQ(error_of({"--session", "a", "--session-new", "b", "--cpu-utilization", "ls"}),
            "prof: --session and --session-new cannot be used together");
}

TEST(OptionRules, StandaloneOptionsWork) {
  for (auto name : standalone_options()) {
    CommandLine command = parse(option_args(name));
    EXPECT_TRUE(command.has(name)) << name;
  }
}

TEST(OptionRules, StandaloneOptionsRefuseCompany) {
  for (auto name : standalone_options()) {
    const std::string dashed = "--" + std::string(name);
    EXPECT_EQ(error_of(concat({option_args(name), {"--cpu-utilization"}})),
              "prof: " + dashed + " must be used alone, not with --cpu-utilization");
    EXPECT_EQ(error_of(concat({{"--devices", "0"}, option_args(name)})),
              "prof: " + dashed + " must be used alone, not with --devices");
    EXPECT_EQ(error_of(concat({option_args(name), {"ls", "-l"}})),
              "prof: " + dashed + " must be used alone, not with an application ('ls')");
    EXPECT_EQ(error_of(concat({option_args(name), {"--plugin", "trace"}})),
              "prof: " + dashed + " must be used alone, not with --plugin \"trace\"");
  }
  EXPECT_EQ(error_of({"--query-events", "--query-activities"}),
            "prof: --query-events must be used alone, not with --query-activities");
  EXPECT_EQ(error_of({"--help", "--version"}),
            "prof: --help must be used alone, not with --version");
}

TEST(OptionRules, StandaloneOptionsAcceptOutputModifiers) {
  CommandLine command = parse({"--plugin-list", "--plugin-path", "/x", "--quiet", "--log-file",
                               "log.txt", "--debug", "--debug-dump", "--force-overwrite"});
  EXPECT_TRUE(command.has("plugin-list"));
  EXPECT_TRUE(parse({"--export-events", "ev.json", "--force-overwrite"}).has("export-events"));
}

TEST(OptionRules, PluginHelpStandsAlone) {
  CommandLine command = parse({"--plugin", "cpu-util help", "--plugin", "summary help"});
  EXPECT_EQ(command.plugins.size(), 2u);
  EXPECT_EQ(error_of({"--plugin", "cpu-util help", "--plugin", "summary"}),
            "prof: --plugin \"cpu-util help\" must be used alone, not with --plugin \"summary\"");
  EXPECT_EQ(error_of({"--plugin", "cpu-util help", "ls"}),
            "prof: --plugin \"cpu-util help\" must be used alone, not with an application ('ls')");
  EXPECT_EQ(error_of({"--cpu-utilization", "--plugin", "cpu-util help"}),
            "prof: --plugin \"cpu-util help\" must be used alone, not with --cpu-utilization");
}

TEST(OptionRules, ControlOptionsAloneOrWithSession) {
  for (auto name : control_options()) {
    const std::string dashed = "--" + std::string(name);
    EXPECT_TRUE(parse({dashed}).has(name));
    EXPECT_TRUE(parse({dashed, "--session", "train-1"}).has("session"));
    EXPECT_TRUE(parse({"--session=train-1", dashed, "--quiet"}).has(name));
    // `prof start -o NAME` names the window's report.
    const std::string allowed = name == "start" ? "--session and -o" : "--session";
    EXPECT_EQ(error_of({dashed, "--cpu-utilization"}),
              "prof: " + dashed + " can only be used alone or with " + allowed +
                  ", not with --cpu-utilization");
    EXPECT_EQ(error_of({dashed, "--session-new", "x"}), "prof: " + dashed +
                                                            " can only be used alone or with " +
                                                            allowed + ", not with --session-new");
    EXPECT_EQ(error_of({dashed, "ls"}), "prof: " + dashed + " can only be used alone or with " +
                                            allowed + ", not with an application ('ls')");
  }
  EXPECT_EQ(error_of({"--start", "-o", "window2"}), "no error");
  EXPECT_EQ(error_of({"--stop", "-o", "window2"}),
            "prof: --stop can only be used alone or with --session, not with --output");
  EXPECT_EQ(error_of({"--start", "--stop"}), "prof: --start and --stop cannot be used together");
}

TEST(OptionRules, CaptureOnlyOptionsNeedAnApplication) {
  for (auto name : capture_only_options()) {
    EXPECT_EQ(error_of(option_args(name)),
              "prof: --" + std::string(name) + " can only be used when launching an application")
        << name;
  }
  EXPECT_EQ(error_of({"--devices", "0,1"}),
            "prof: --devices can only be used when launching an application");
  EXPECT_EQ(error_of({"--import-profile", "r.profrep", "--devices", "0"}),
            "prof: --devices can only be used when launching an application");
}

TEST(OptionRules, CaptureOnlyOptionsWorkWithAnApplication) {
  for (auto name : capture_only_options()) {
    Args args = option_args(name);
    if (name != "cpu-utilization") args.push_back("--cpu-utilization");
    args.push_back("./app");
    EXPECT_EQ(error_of(args), "no error") << name;
  }
}

TEST(OptionRules, ACaptureNeedsSomethingToCapture) {
  const std::string message =
      "prof: a capture needs one of --enable-events, --enable-activities, --import-events, "
      "--import-activities, --metrics, --cpu-profiling-callstack, --cpu-utilization, "
      "--memory-utilization, --memory-profile, --gcu-utilization, --nic-metrics, "
      "--python-sampling, --python-functions-trace, --pytorch, --plugin, --config, --trace or "
      "--sample";
  EXPECT_EQ(error_of({"ls"}), message);
  EXPECT_EQ(error_of({"--print-summary", "--export-profile", "r", "ls", "-l"}), message);
  EXPECT_EQ(error_of({"--trace", "none", "ls"}), message);
  EXPECT_EQ(error_of({"--sample", "none", "ls"}), message);
  EXPECT_EQ(error_of({"--nic-metrics", "false", "ls"}), message);
  EXPECT_EQ(error_of({"--python-sampling", "false", "ls"}), message);
  EXPECT_EQ(error_of({"--plugin", "summary help", "--cpu-utilization"}),
            "prof: --plugin \"summary help\" must be used alone, not with --cpu-utilization");
  for (auto name : capture_selectors())
    EXPECT_EQ(error_of(concat({option_args(name), {"ls"}})), "no error") << name;
  EXPECT_EQ(error_of({"--plugin", "cpu-util", "ls"}), "no error");
  EXPECT_EQ(error_of({"--config", "p.yaml", "ls"}), "no error");
  EXPECT_EQ(error_of({"-t", "osrt", "ls"}), "no error");
  EXPECT_EQ(error_of({"--sample", "process-tree", "ls"}), "no error");
}

TEST(OptionRules, WithoutAnApplication) {
  EXPECT_EQ(error_of({}), "prof: no application given (see prof --help)");
  EXPECT_EQ(error_of({"--quiet"}), "prof: no application given (see prof --help)");
  EXPECT_EQ(error_of({"profile"}), "prof: no application given (see prof --help)");
  EXPECT_EQ(error_of({"--print-summary"}),
            "prof: --print-summary needs an application to profile, or --import-profile or "
            "--import-rawdata to read a saved capture");
  EXPECT_EQ(error_of({"--plugin", "trace"}),
            "prof: --plugin \"trace\" needs an application to profile, or --import-profile or "
            "--import-rawdata to read a saved capture");
  EXPECT_EQ(error_of({"--session", "s1"}),
            "prof: --session needs --start, --stop, --suspend, --resume, --cancel or --shutdown, "
            "or an application");
  EXPECT_EQ(error_of({"--sample", "process-tree"}),
            "prof: --sample process-tree can only be used when launching an application");
}

TEST(OptionRules, SavedCapturesNeedNoApplication) {
  EXPECT_EQ(error_of({"--import-profile", "r.profrep"}), "no error");
  EXPECT_EQ(error_of({"--import-profile", "r.profrep", "--print-gcu-summary", "--export-csv",
                      "r.csv", "--plugin", "trace scope=all"}),
            "no error");
  EXPECT_EQ(error_of({"--import-rawdata", "r.db", "--export-profile", "r.profrep"}), "no error");
  EXPECT_EQ(error_of({"--import-profile", "r.profrep", "ls"}),
            "prof: --import-profile cannot be used with an application ('ls')");
  EXPECT_EQ(error_of({"--import-rawdata", "r.db", "--cpu-utilization", "ls"}),
            "prof: --import-rawdata cannot be used with an application ('ls')");
}

TEST(OptionRules, SystemWideSamplingNeedsNoApplication) {
  EXPECT_EQ(error_of({"--sample", "system-wide", "-o", "sys"}), "no error");
  EXPECT_EQ(error_of({"-s", "system-wide", "--cpu-utilization"}),
            "prof: --cpu-utilization can only be used when launching an application");
}

TEST(OptionRules, VisualProfilerMerge) {
  EXPECT_EQ(error_of({"--visual-profiler-merge-from", "dir", "--visual-profiler-merge-to", "all"}),
            "no error");
  EXPECT_EQ(error_of({"--visual-profiler-merge-from", "dir"}),
            "prof: --visual-profiler-merge-from needs --visual-profiler-merge-to");
  EXPECT_EQ(error_of({"--visual-profiler-merge-to", "all"}),
            "prof: --visual-profiler-merge-to needs --visual-profiler-merge-from");
  EXPECT_EQ(error_of({"--visual-profiler-merge-from", "d", "--visual-profiler-merge-to", "f",
                      "--cpu-utilization", "ls"}),
            "prof: --visual-profiler-merge-from must be used alone, not with --cpu-utilization");
}

TEST(OptionRules, DevicesConflictWithImportedSelections) {
  EXPECT_EQ(error_of({"--devices", "0", "--import-events", "ev.json", "ls"}),
            "prof: --devices and --import-events cannot be used together");
  EXPECT_EQ(error_of({"--devices", "0", "--import-activities", "ac.json", "ls"}),
            "prof: --devices and --import-activities cannot be used together");
  EXPECT_EQ(error_of({"--devices", "0", "--enable-activities", "all", "ls"}), "no error");
}

} // namespace
} // namespace prof::cli
