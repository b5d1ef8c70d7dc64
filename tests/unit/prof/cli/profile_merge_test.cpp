#include "tools/prof/cli/profile_merge.hpp"

#include "cli_test_helpers.hpp"
#include "core/config/capture_profile.hpp"
#include "tools/prof/cli/plugin_mapping.hpp"

#include <gtest/gtest.h>

namespace prof::cli {
namespace {

const prof_option_desc kCpuUtilOptions[] = {
    {"frequency", PROF_OPTION_INT, "100", 1, 1000, nullptr, "sampling rate in Hz"},
    {"cpu", PROF_OPTION_BOOL, "true", 0, -1, nullptr, "sample CPU utilization"},
    {"memory", PROF_OPTION_BOOL, "true", 0, -1, nullptr, "sample memory use"},
};

const prof_option_desc kSummaryOptions[] = {
    {"mode", PROF_OPTION_ENUM, "summary", 0, -1, "summary,gcu,per-gcu,api", "what to sum up"},
};
const prof_option_desc kTraceOptions[] = {
    {"scope", PROF_OPTION_ENUM, "all", 0, -1, "all,gcu", "which events to print"},
};

prof_plugin_descriptor descriptor(const char *name, const prof_option_desc *options,
                                  uint32_t count) {
  prof_plugin_descriptor d{};
  d.struct_size = sizeof d;
  d.name = name;
  d.options = options;
  d.option_count = count;
  return d;
}

class ProfileMerge : public ::testing::Test {
protected:
  config::CaptureProfile profile(const std::string &text) {
    return config::parse_capture_profile(text, "p.yaml", catalog_);
  }

  std::string merge_error(CommandLine &command, const std::string &text) {
    try {
      merge_capture_profile(command, profile(text));
      check_option_rules(command);
    } catch (const UsageError &error) {
      return error.what();
    }
    return "no error";
  }

  prof_plugin_descriptor cpu_util_ = descriptor("cpu-util", kCpuUtilOptions, 3);
  prof_plugin_descriptor summary_ = descriptor("summary", kSummaryOptions, 1);
  prof_plugin_descriptor trace_ = descriptor("trace", kTraceOptions, 1);
  config::PluginCatalog catalog_ =
      config::catalog_from_descriptors({&cpu_util_, &summary_, &trace_});
};

TEST_F(ProfileMerge, OptionsAndPluginsJoinTheCommandLine) {
  CommandLine command = parse_arguments({"--config", "p.yaml", "ls"});
  merge_capture_profile(command, profile("options:\n"
                                         "  cpu-utilization: true\n"
                                         "  memory-utilization:\n"
                                         "  print-app-log: false\n"
                                         "  utilization-frequency: 50\n"
                                         "  devices: [0, 1]\n"
                                         "plugins:\n"
                                         "  summary: {}\n"));
  check_option_rules(command);
  EXPECT_TRUE(command.has("cpu-utilization"));
  EXPECT_TRUE(command.has("memory-utilization"));
  EXPECT_FALSE(command.has("print-app-log"));
  EXPECT_EQ(command.value_or("utilization-frequency", ""), "50");
  EXPECT_EQ(command.value_or("devices", ""), "0,1");
  EXPECT_EQ(command.find("devices")->origin, "p.yaml:6:3");
  ASSERT_EQ(command.plugins.size(), 1u);
  EXPECT_EQ(command.plugins[0].name, "summary");
  EXPECT_EQ(command.plugins[0].origin, "p.yaml:8:3");
}

TEST_F(ProfileMerge, CommandLineWins) {
  CommandLine command = parse_arguments({"--utilization-frequency", "10", "--plugin",
                                         "cpu-util frequency=5", "--cpu-utilization", "ls"});
  merge_capture_profile(command,
                        profile("options:\n  utilization-frequency: 50\n"
                                "plugins:\n  cpu-util:\n    frequency: 60\n    cpu: off\n"));
  EXPECT_EQ(command.value_or("utilization-frequency", ""), "10");
  EXPECT_EQ(command.find("utilization-frequency")->origin, "");
  ASSERT_EQ(command.plugins.size(), 1u);
  EXPECT_EQ(command.plugins[0].options, (std::vector<std::pair<std::string, std::string>>{
                                            {"frequency", "5"}, {"cpu", "false"}}));
}

TEST_F(ProfileMerge, OptionalValueOrFlag) {
  const auto merged = [this](const std::string &text) {
    CommandLine command = parse_arguments({"ls"});
    merge_capture_profile(command, profile("options:\n  debug-dump:" + text + "\n"));
    return command.has("debug-dump") ? "[" + *command.value("debug-dump") + "]" : "unset";
  };
  EXPECT_EQ(merged(""), "[]");
  EXPECT_EQ(merged(" true"), "[]");
  EXPECT_EQ(merged(" false"), "unset");
  EXPECT_EQ(merged(" dumps"), "[dumps]");
}

TEST_F(ProfileMerge, BadOptionsArePlaced) {
  CommandLine command = parse_arguments({"ls"});
  EXPECT_EQ(merge_error(command, "options:\n  cpu-utilisation: true\n"),
            "prof: p.yaml:2:3: 'cpu-utilisation' is not a prof option (see prof --help)");
  command = parse_arguments({"ls"});
  EXPECT_EQ(merge_error(command, "options:\n  utilization-frequency: 500\n"),
            "prof: p.yaml:2:26: --utilization-frequency 500 is out of range: expected 1 to 100");
  command = parse_arguments({"ls"});
  EXPECT_EQ(merge_error(command, "options:\n  cpu-utilization: 5\n"),
            "prof: p.yaml:2:20: --cpu-utilization takes true or false, not '5'");
  command = parse_arguments({"ls"});
  EXPECT_EQ(merge_error(command, "options:\n  devices:\n"),
            "prof: p.yaml:2:3: --devices needs a value");
  command = parse_arguments({"ls"});
  EXPECT_EQ(merge_error(command, "options:\n  plugin: cpu-util\n"),
            "prof: p.yaml:2:3: 'plugin' cannot be set in a profile (use the plugins: section)");
  command = parse_arguments({"ls"});
  EXPECT_EQ(merge_error(command, "options:\n  memory-profile: all\n"),
            "prof: p.yaml:2:19: --memory-profile 'all' is not valid: expected events");
  command = parse_arguments({"ls"});
  EXPECT_EQ(merge_error(command, "options:\n  memory-profile: events\n"), "no error");
  EXPECT_EQ(*command.value("memory-profile"), "events");
  command = parse_arguments({"ls"});
  EXPECT_EQ(merge_error(command, "options:\n  session-new: a b\n"),
            "prof: p.yaml:2:16: --session-new 'a b' is not a valid session name: use letters, "
            "digits, '-' and '_'");
}

TEST_F(ProfileMerge, RulesNameTheProfile) {
  CommandLine command = parse_arguments({"--print-summary", "--cpu-utilization", "ls"});
  EXPECT_EQ(merge_error(command, "options:\n  print-gcu-summary: true\n"),
            "prof: --print-gcu-summary (from p.yaml:2:3) and --print-summary cannot be used "
            "together");
  command = parse_arguments({"--config", "p.yaml"});
  EXPECT_EQ(merge_error(command, "options:\n  cpu-utilization: true\n"),
            "prof: --cpu-utilization (from p.yaml:2:3) can only be used when launching an "
            "application");
  command = parse_arguments({"--import-profile", "r.profrep"});
  EXPECT_EQ(merge_error(command, "plugins:\n  cpu-util:\n"), "no error");
}

TEST_F(ProfileMerge, AProfileCountsAsACaptureSelection) {
  CommandLine command = parse_arguments({"--config", "p.yaml", "ls"});
  EXPECT_EQ(merge_error(command, "plugins:\n  cpu-util: {frequency: 10}\n"), "no error");
}

TEST_F(ProfileMerge, ShippedProfilesPassTheRules) {
  for (auto name : {"cpu-utilization.yaml", "host-overview.yaml"}) {
    const std::string path = std::string(PROF_SOURCE_DIR) + "/configs/" + name;
    CommandLine command = parse_arguments({"--config", path, "./app", "-x"});
    merge_capture_profile(command, config::load_capture_profile(*command.config_path, catalog_));
    EXPECT_NO_THROW(check_option_rules(command)) << name;
    bool has_cpu_util = false;
    for (const auto &request : plugin_requests(command))
      has_cpu_util |= request.plugin == "cpu-util";
    EXPECT_TRUE(has_cpu_util) << name;
    EXPECT_EQ(command.app, (std::vector<std::string>{"./app", "-x"}));
  }
}

TEST_F(ProfileMerge, CpuUtilizationProfileRequests) {
  const std::string path = std::string(PROF_SOURCE_DIR) + "/configs/cpu-utilization.yaml";
  CommandLine command = parse_arguments({"--config", path, "./app"});
  merge_capture_profile(command, config::load_capture_profile(path, catalog_));
  check_option_rules(command);
  auto requests = plugin_requests(command);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].plugin, "cpu-util");
  EXPECT_EQ(requests[0].requested_by, path + ":5:3");
  EXPECT_EQ(requests[0].options, (std::vector<std::pair<std::string, std::string>>{
                                     {"cpu", "true"}, {"memory", "true"}, {"frequency", "50"}}));
  EXPECT_EQ(requests[1].plugin, "summary");
  EXPECT_EQ(requests[1].options,
            (std::vector<std::pair<std::string, std::string>>{{"mode", "summary"}}));
  EXPECT_FALSE(requests[1].implicit);
}

} // namespace
} // namespace prof::cli
