#include "cli_test_helpers.hpp"

#include <gtest/gtest.h>

namespace prof::cli {
namespace {

using testing::error_of;
using testing::parse;
using Args = std::vector<std::string>;

TEST(CommandLineParser, AllValueSpellingsGiveTheSameValue) {
  for (const Args &args : {
           Args{"--utilization-frequency", "50", "--cpu-utilization", "ls"},
           Args{"--utilization-frequency=50", "--cpu-utilization", "ls"},
           Args{"-utilization-frequency", "50", "-cpu-utilization", "ls"},
           Args{"-utilization-frequency=50", "-cpu-utilization", "ls"},
       }) {
    CommandLine command = parse(args);
    ASSERT_NE(command.value("utilization-frequency"), nullptr);
    EXPECT_EQ(*command.value("utilization-frequency"), "50");
    EXPECT_TRUE(command.has("cpu-utilization"));
    EXPECT_EQ(command.app, Args{"ls"});
  }
}

TEST(CommandLineParser, OptionsAfterTheApplicationBelongToIt) {
  CommandLine command = parse({"--cpu-utilization", "ls", "-l", "--color", "--quiet"});
  EXPECT_EQ(command.app, (Args{"ls", "-l", "--color", "--quiet"}));
  EXPECT_FALSE(command.has("quiet"));
  EXPECT_EQ(command.subcommand, "profile");
}

TEST(CommandLineParser, AnOptionValueIsNotTheApplication) {
  CommandLine command = parse({"--enable-activities", "*/general/operator", "python3", "r50.py"});
  EXPECT_EQ(command.value_or("enable-activities", ""), "*/general/operator");
  EXPECT_EQ(command.app, (Args{"python3", "r50.py"}));
}

TEST(CommandLineParser, AValueMayStartWithADash) {
  CommandLine command = parse({"--export-profile", "-odd-name", "--cpu-utilization", "ls"});
  EXPECT_EQ(command.value_or("export-profile", ""), "-odd-name");
}

TEST(CommandLineParser, DoubleDashEndsOptions) {
  CommandLine command = parse({"--cpu-utilization", "--", "--weird-app", "-x"});
  EXPECT_EQ(command.app, (Args{"--weird-app", "-x"}));
}

TEST(CommandLineParser, ShortOptions) {
  CommandLine command =
      parse({"-o", "report", "-t", "osrt,nvtx", "-s", "system-wide", "-w", "false", "ls"});
  EXPECT_EQ(command.value_or("output", ""), "report");
  EXPECT_EQ(command.value_or("trace", ""), "osrt,nvtx");
  EXPECT_EQ(command.value_or("sample", ""), "system-wide");
  EXPECT_EQ(command.value_or("show-output", ""), "false");
  EXPECT_EQ(parse({"-oreport", "-t=osrt", "ls"}).value_or("output", ""), "report");
  EXPECT_TRUE(parse({"-h"}).has("help"));
}

TEST(CommandLineParser, ProfileSubcommandIsTheSameEngine) {
  CommandLine command = parse({"profile", "--cpu-utilization", "ls", "-l"});
  EXPECT_EQ(command.subcommand, "profile");
  EXPECT_EQ(command.app, (Args{"ls", "-l"}));
}

TEST(CommandLineParser, PluginsSubcommandMeansPluginList) {
  CommandLine command = parse({"plugins", "--plugin-path", "/opt/p"});
  EXPECT_EQ(command.subcommand, "plugins");
  EXPECT_TRUE(command.has("plugin-list"));
  EXPECT_EQ(command.plugin_paths, Args{"/opt/p"});
  EXPECT_EQ(error_of({"plugins", "--cpu-utilization"}),
            "prof: 'prof plugins' takes no --cpu-utilization (see prof plugins --help)");
  EXPECT_EQ(error_of({"plugins", "ls"}), "prof: 'prof plugins' must be used alone, not with an "
                                         "application ('ls')");
}

TEST(CommandLineParser, OtherWordsAreTheApplication) {
  CommandLine command = parse_arguments({"train", "--cpu-utilization"});
  EXPECT_EQ(command.app, (Args{"train", "--cpu-utilization"}));
  EXPECT_EQ(command.subcommand, "profile");
  EXPECT_EQ(parse({"--cpu-utilization", "profile"}).app, Args{"profile"});
}

TEST(CommandLineParser, SessionSubcommandsStandForTheirOptions) {
  for (const char *word : {"start", "stop", "suspend", "resume", "cancel", "shutdown"}) {
    const CommandLine command = parse({word, "--session", "s1"});
    EXPECT_TRUE(command.has(word)) << word;
    EXPECT_EQ(command.subcommand, word);
  }
  // asys launch: the application starts with collection off.
  const CommandLine launch = parse({"launch", "--cpu-utilization", "./app"});
  EXPECT_EQ(launch.value_or("profile-from-start", "on"), "off");
  EXPECT_EQ(launch.app, Args{"./app"});
  const CommandLine attach = parse({"attach", "--cpu-utilization", "1234,5678"});
  EXPECT_EQ(attach.subcommand, "attach");
  EXPECT_EQ(attach.app, Args{"1234,5678"});
}

TEST(CommandLineParser, UnknownOptions) {
  EXPECT_EQ(error_of({"--foo", "ls"}), "prof: unknown option '--foo' (see prof --help)");
  EXPECT_EQ(error_of({"--foo=3", "ls"}), "prof: unknown option '--foo' (see prof --help)");
  EXPECT_EQ(error_of({"-foo"}), "prof: unknown option '-foo' (see prof --help)");
  EXPECT_EQ(error_of({"--print"}), "prof: unknown option '--print' (see prof --help)");
}

TEST(CommandLineParser, MissingAndUnexpectedValues) {
  EXPECT_EQ(error_of({"--devices"}), "prof: --devices needs a value");
  EXPECT_EQ(error_of({"--export-profile="}), "prof: --export-profile needs a value");
  EXPECT_EQ(error_of({"--quiet=yes", "ls"}), "prof: --quiet takes no value");
  EXPECT_EQ(error_of({"--devices", "0", "--devices", "1"}),
            "prof: --devices is given more than once");
}

TEST(CommandLineParser, OptionalValuesComeOnlyAfterEquals) {
  const CommandLine alone = parse({"--debug-dump", "--cpu-utilization", "./app"});
  ASSERT_NE(alone.value("debug-dump"), nullptr);
  EXPECT_EQ(*alone.value("debug-dump"), "");
  const CommandLine named = parse({"--debug-dump=dumps/a b", "--cpu-utilization", "./app"});
  EXPECT_EQ(named.value_or("debug-dump", "?"), "dumps/a b");
  const CommandLine single_dash = parse({"-debug-dump=d", "--cpu-utilization", "./app"});
  EXPECT_EQ(single_dash.value_or("debug-dump", "?"), "d");
  // The next argument is the application, never the option's value.
  const CommandLine before_app = parse({"--cpu-utilization", "--debug-dump", "./app", "x"});
  EXPECT_EQ(before_app.value_or("debug-dump", "?"), "");
  EXPECT_EQ(before_app.app, (Args{"./app", "x"}));
  EXPECT_EQ(error_of({"--debug-dump=", "ls"}), "prof: --debug-dump needs a value after '='");
  EXPECT_EQ(error_of({"--debug-dump", "--debug-dump=d", "ls"}),
            "prof: --debug-dump is given more than once");
}

TEST(CommandLineParser, Ranges) {
  EXPECT_EQ(error_of({"--cpu-profiling-frequency", "500", "ls"}),
            "prof: --cpu-profiling-frequency 500 is out of range: expected 1 to 100");
  EXPECT_EQ(error_of({"--cpu-profiling-frequency", "0", "ls"}),
            "prof: --cpu-profiling-frequency 0 is out of range: expected 1 to 100");
  EXPECT_EQ(error_of({"--gcu-utilization-frequency=1001"}),
            "prof: --gcu-utilization-frequency 1001 is out of range: expected 1 to 1000");
  EXPECT_EQ(error_of({"--utilization-frequency", "101"}),
            "prof: --utilization-frequency 101 is out of range: expected 1 to 100");
  EXPECT_EQ(error_of({"--device-buffer-size", "65"}),
            "prof: --device-buffer-size 65 is out of range: expected 1 to 64");
  EXPECT_EQ(error_of({"--host-buffer-size", "2048"}),
            "prof: --host-buffer-size 2048 is out of range: expected 1 to 1024");
  EXPECT_EQ(error_of({"--host-ringbuffer-size", "1"}),
            "prof: --host-ringbuffer-size 1 is out of range: expected 2 to 64");
  EXPECT_EQ(error_of({"--utilization-frequency", "fast"}),
            "prof: --utilization-frequency 'fast' is not a number");
  EXPECT_EQ(error_of({"--utilization-frequency", "10x"}),
            "prof: --utilization-frequency '10x' is not a number");
  EXPECT_EQ(parse({"--gcu-utilization", "--gcu-utilization-frequency", "1000", "app"})
                .int_or("gcu-utilization-frequency", 0),
            1000);
}

TEST(CommandLineParser, WatermarkStaysBelowTheRingSize) {
  EXPECT_EQ(error_of({"--cpu-utilization", "--watermark-threshold", "16", "ls"}),
            "prof: --watermark-threshold 16 is out of range: expected 1 to 15 "
            "(--host-ringbuffer-size - 1)");
  EXPECT_EQ(error_of({"--cpu-utilization", "--host-ringbuffer-size", "8", "--watermark-threshold",
                      "8", "ls"}),
            "prof: --watermark-threshold 8 is out of range: expected 1 to 7 "
            "(--host-ringbuffer-size - 1)");
  EXPECT_EQ(parse({"--cpu-utilization", "--host-ringbuffer-size", "64", "--watermark-threshold",
                   "63", "ls"})
                .int_or("watermark-threshold", 0),
            63);
}

TEST(CommandLineParser, EnumValues) {
  EXPECT_EQ(error_of({"--buffer", "gpu"}),
            "prof: --buffer 'gpu' is not valid: expected device or host");
  EXPECT_EQ(error_of({"--profile-from-start", "maybe"}),
            "prof: --profile-from-start 'maybe' is not valid: expected on or off");
  EXPECT_EQ(error_of({"--sample", "all"}),
            "prof: --sample 'all' is not valid: expected process-tree, system-wide or none");
  EXPECT_EQ(error_of({"--show-output", "yes"}),
            "prof: --show-output 'yes' is not valid: expected true or false");
  EXPECT_EQ(parse({"--profile-from-start", "off", "--cpu-utilization", "ls"})
                .value_or("profile-from-start", ""),
            "off");
}

TEST(CommandLineParser, ListValues) {
  EXPECT_EQ(error_of({"--devices", "0,a", "ls"}),
            "prof: --devices '0,a' is not valid: expected comma-separated device ids, e.g. 0,1");
  EXPECT_EQ(error_of({"--trace", "osrt,,nvtx", "ls"}),
            "prof: --trace 'osrt,,nvtx' is not valid: expected a comma-separated list of names");
  EXPECT_EQ(parse({"--devices", "0,1", "--gcu-utilization", "ls"}).value_or("devices", ""), "0,1");
}

TEST(CommandLineParser, SessionNames) {
  EXPECT_EQ(parse({"--session", "train_run-2", "--stop"}).value_or("session", ""), "train_run-2");
  EXPECT_EQ(error_of({"--session", "my run", "--stop"}),
            "prof: --session 'my run' is not a valid session name: use letters, digits, '-' "
            "and '_'");
  EXPECT_EQ(error_of({"--session-new", "a/b", "--cpu-utilization", "ls"}),
            "prof: --session-new 'a/b' is not a valid session name: use letters, digits, '-' "
            "and '_'");
}

TEST(CommandLineParser, PluginOptionsRepeat) {
  CommandLine command = parse({"--plugin", "cpu-util frequency=50 cpu=true", "--plugin", "summary",
                               "--plugin-path", "/a", "--plugin-path=/b", "ls"});
  ASSERT_EQ(command.plugins.size(), 2u);
  EXPECT_EQ(command.plugins[0].name, "cpu-util");
  EXPECT_EQ(command.plugins[0].options, (std::vector<std::pair<std::string, std::string>>{
                                            {"frequency", "50"}, {"cpu", "true"}}));
  EXPECT_EQ(command.plugins[1].name, "summary");
  EXPECT_TRUE(command.plugins[1].options.empty());
  EXPECT_EQ(command.plugin_paths, (Args{"/a", "/b"}));
  EXPECT_EQ(error_of({"--plugin", "summary", "--plugin", "summary mode=gcu", "ls"}),
            "prof: --plugin summary is given more than once");
}

TEST(CommandLineParser, ConfigPath) {
  CommandLine command = parse({"--config", "host.yaml", "ls"});
  EXPECT_EQ(command.config_path, "host.yaml");
}

TEST(CommandLineParser, ParseCommandLineSkipsTheProgramName) {
  const char *argv[] = {"prof", "--cpu-utilization", "sleep", "1"};
  CommandLine command = parse_command_line(4, argv);
  EXPECT_EQ(command.app, (Args{"sleep", "1"}));
  const char *bad[] = {"prof", "sleep"};
  EXPECT_THROW(parse_command_line(2, bad), UsageError);
}

} // namespace
} // namespace prof::cli
