// The text of the --debug-dump files.
#include "tools/prof/capture/debug_dump_text.hpp"

#include "core/report/chunk.hpp"
#include "tests/support/report_test_support.hpp"
#include "tools/prof/capture/plugin_listing.hpp"
#include "tools/prof/cli/command_line_parser.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

namespace prof::tool {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(DebugDumpText, ConfigurationHasEveryOptionAndTheCommand) {
  cli::CommandLine command = cli::parse_arguments(
      {"--cpu-utilization", "--debug-dump=d", "--utilization-frequency", "50", "--plugin",
       "summary mode=gcu", "--plugin-path", "/x", "--show-output", "false", "./app", "a b"});
  command.set("devices", "0,1", "p.yaml:3:3");
  EXPECT_EQ(configuration_text(command), "subcommand: profile (implied)\n"
                                         "command: ./app 'a b'\n"
                                         "options, after capture profiles are merged:\n"
                                         "  --cpu-utilization\n"
                                         "  --debug-dump=d\n"
                                         "  --utilization-frequency=50\n"
                                         "  --show-output=false\n"
                                         "  --devices=0,1  (from p.yaml:3:3)\n"
                                         "  --plugin \"summary mode=gcu\"\n"
                                         "  --plugin-path=/x\n");
  const cli::CommandLine flag = cli::parse_arguments({"attach", "--debug-dump", "42"});
  EXPECT_EQ(configuration_text(flag), "subcommand: attach\n"
                                      "command: 42\n"
                                      "options, after capture profiles are merged:\n"
                                      "  --debug-dump\n");
}

TEST(DebugDumpText, PluginsAreTheListThenTheCapturesRecords) {
  core::PluginRegistry registry;
  registry.load(std::filesystem::path(PROF_FIXTURE_DIR) / "libprof-good.so");
  report::Header header;
  header.plugins = {{"good", "1.0.0", {{"rate", "20"}, {"mode", "fast"}}}, {"summary", "0.1", {}}};
  EXPECT_EQ(plugins_text(registry, header),
            plugin_list_text(registry) + "\nIn this capture, with the options they ran with:\n"
                                         "good 1.0.0 rate=20 mode=fast\n"
                                         "summary 0.1\n");
}

TEST(DebugDumpText, Environment) {
  const EnvironmentFacts facts{"prof 1.2.3",
                               "Linux 6.1.0 #1 SMP x86_64",
                               "node-7",
                               "2026-12-01T20:38:55Z",
                               4242,
                               "/home/u",
                               ""};
  EXPECT_EQ(environment_text(facts), "prof: prof 1.2.3\n"
                                     "kernel: Linux 6.1.0 #1 SMP x86_64\n"
                                     "host: node-7\n"
                                     "time: 2026-12-01T20:38:55Z\n"
                                     "prof pid: 4242\n"
                                     "working folder: /home/u\n"
                                     "PROF_PLUGIN_PATH: (unset)\n");
  const EnvironmentFacts here = environment_facts();
  EXPECT_THAT(here.prof_version, StartsWith("prof "));
  EXPECT_THAT(here.kernel, StartsWith("Linux "));
  EXPECT_FALSE(here.host.empty());
}

TEST(DebugDumpText, ChunksOfAReport) {
  report::testing::ScratchDir dir;
  const auto sample = report::testing::write_sample_report(dir.file("r.profrep"));
  const std::string text = chunks_text({sample.path});
  EXPECT_THAT(text, StartsWith("Report " + sample.path + ": " +
                               std::to_string(std::filesystem::file_size(sample.path)) +
                               " bytes, complete\n"));
  EXPECT_THAT(text, HasSubstr("  records: 4 strings, 3 tracks, 1 stacks, 0 argument sets, "
                              "1 clock domains, 1 drop records\n"));
  EXPECT_THAT(text, HasSubstr("  events: 50 (12 dropped); end chunk: present\n"));
  EXPECT_THAT(text, ContainsRegex("\n    events +3 +[0-9]+ +50\n"));
  EXPECT_THAT(text, ContainsRegex("\n    header +1 +[0-9]+ +0\n"));
  for (const auto &chunk : sample.chunks) {
    std::string row = " " + std::to_string(chunk.offset) + "  " +
                      std::string(report::chunk_type_name(chunk.type));
    if (chunk.type == static_cast<uint16_t>(report::ChunkType::events))
      EXPECT_THAT(
          text, ContainsRegex(row + " +0x000[01] +[0-9]+ +" + std::to_string(chunk.events) + "\n"));
    else
      EXPECT_THAT(text, ContainsRegex(row + " +0x0000 +[0-9]+\n"));
  }
}

TEST(DebugDumpText, NoReportOrAMissingOne) {
  EXPECT_EQ(chunks_text({}), "No report file was written by this capture (prof writes one with "
                             "-o NAME or --export-profile FILE).\n");
  EXPECT_THAT(chunks_text({"/nonexistent/r.profrep"}),
              StartsWith("Report /nonexistent/r.profrep: cannot be read: "));
}

} // namespace
} // namespace prof::tool
