// asys spellings of what prof already does: -f true|false, -b, -v, and
// -t trace items.
#include "tools/prof/cli/plugin_mapping.hpp"
#include "tools/prof/cli/trace_items.hpp"

#include "cli_test_helpers.hpp"

#include <gtest/gtest.h>

namespace prof::cli {
namespace {

using testing::error_of;
using testing::parse;
using Args = std::vector<std::string>;

TEST(AsysSpellings, ForceOverwriteAloneOrWithTrueOrFalse) {
  for (const Args &args : {Args{"--force-overwrite", "--cpu-utilization", "ls"},
                           Args{"-f", "true", "--cpu-utilization", "ls"},
                           Args{"--force-overwrite", "true", "--cpu-utilization", "ls"},
                           Args{"--force-overwrite=true", "--cpu-utilization", "ls"},
                           Args{"-f=true", "--cpu-utilization", "ls"}}) {
    const CommandLine command = parse(args);
    EXPECT_TRUE(command.has("force-overwrite")) << args[0];
    EXPECT_EQ(command.app, Args{"ls"});
  }
  for (const Args &args : {Args{"-f", "false", "--cpu-utilization", "ls"},
                           Args{"--force-overwrite=false", "--cpu-utilization", "ls"}}) {
    const CommandLine command = parse(args);
    EXPECT_FALSE(command.has("force-overwrite")) << args[0];
    EXPECT_EQ(command.app, Args{"ls"});
  }
  // A word other than true/false after it is the application.
  EXPECT_EQ(parse({"--cpu-utilization", "-f", "ls"}).app, Args{"ls"});
  EXPECT_EQ(error_of({"-f=maybe", "--cpu-utilization", "ls"}),
            "prof: --force-overwrite 'maybe' is not valid: expected true or false");
}

TEST(AsysSpellings, BacktraceAndVersionHaveAsysShortNames) {
  EXPECT_EQ(parse({"-s", "process-tree", "-b", "dwarf", "ls"}).value_or("backtrace", ""), "dwarf");
  EXPECT_EQ(error_of({"-s", "process-tree", "-b", "lbr", "ls"}),
            "prof: --backtrace 'lbr' is not valid: expected fp, dwarf or none");
  EXPECT_TRUE(parse({"-v"}).has("version"));
}

TEST(AsysSpellings, VersionAndHelpStandAlone) {
  EXPECT_EQ(error_of({"--plugin-list", "--version"}),
            "prof: --plugin-list must be used alone, not with --version");
  EXPECT_EQ(error_of({"-v", "--cpu-utilization", "ls"}),
            "prof: --version must be used alone, not with --cpu-utilization");
  EXPECT_EQ(error_of({"-h", "ls"}),
            "prof: --help must be used alone, not with an application ('ls')");
  EXPECT_EQ(error_of({"--version", "--quiet"}), "no error");
  // The option a subcommand stands for is not company.
  for (const char *word : {"launch", "start", "plugins", "stop", "attach", "profile", "status"})
    EXPECT_EQ(error_of({word, "--help"}), "no error") << word;
}

const PluginRequest *find(const std::vector<PluginRequest> &requests, std::string_view plugin) {
  for (const auto &request : requests)
    if (request.plugin == plugin) return &request;
  return nullptr;
}

TEST(TraceItems, AsysAndNsysNamesReachProfsSources) {
  const auto requests = plugin_requests(parse({"-t", "hgtx,osrt,hggc,nccl", "ls"}));
  for (const char *plugin : {"nvtx", "osrt", "cuda", "pccl"})
    EXPECT_NE(find(requests, plugin), nullptr) << plugin;
  EXPECT_EQ(find(requests, "hgtx"), nullptr);
  EXPECT_EQ(find(requests, "cuda")->when_missing,
            "--trace hggc needs a T-Head PPU or NVIDIA GPU with CUPTI and plugin cuda");
  // A plugin's own name still works.
  EXPECT_NE(find(plugin_requests(parse({"-t", "cpu-util", "ls"})), "cpu-util"), nullptr);
}

TEST(AsysSpellings, CaptureRangesOfAsysAndNsys) {
  for (const std::string range : {"annotation", "nvtx", "hgtx"})
    for (const std::string option :
         {"-p", "--annotation-capture", "--nvtx-capture", "--hgtx-capture"}) {
      const CommandLine command = parse({"-c", range, option, "step 3@train", "-t", "nvtx", "ls"});
      EXPECT_EQ(command.value_or("capture-range", ""), "annotation") << range << " " << option;
      EXPECT_EQ(command.value_or("annotation-capture", ""), "step 3@train") << option;
    }
  for (const std::string range : {"profiler-api", "cudaProfilerApi", "hggcProfilerApi"})
    EXPECT_EQ(parse({"-c", range, "-t", "nvtx", "ls"}).value_or("capture-range", ""),
              "profiler-api")
        << range;
  EXPECT_EQ(error_of({"-c", "hgtx", "--hgtx-capture", "a", "-p", "b", "ls"}),
            "prof: --annotation-capture is also given in another tool's spelling: give one");
  EXPECT_EQ(error_of({"-c", "hgtx", "-p", "a", "--hgtx-capture", "b", "ls"}),
            "prof: --hgtx-capture is --annotation-capture spelled another way, and both are "
            "given: give one");
  EXPECT_EQ(error_of({"-c", "hgtx2", "ls"}),
            "prof: --capture-range 'hgtx2' is not valid: expected none, profiler-api, annotation, "
            "nvtx, hgtx, cudaProfilerApi or hggcProfilerApi");
}

TEST(TraceItems, ItemsProfHasNoSourceForAreRefusedByName) {
  for (const TraceItem &item : trace_items()) {
    if (!item.plugin.empty()) continue;
    try {
      plugin_requests(parse({"-t", "osrt," + std::string(item.name), "ls"}));
      ADD_FAILURE() << item.name << " was accepted";
    } catch (const UsageError &e) {
      EXPECT_EQ(std::string(e.what()), "prof: --trace " + std::string(item.name) + " needs " +
                                           std::string(item.needs) +
                                           " (trace items: " + supported_trace_items() + ")");
    }
  }
  EXPECT_EQ(supported_trace_items(), "gcu, osrt, nvtx, hgtx, cuda, hggc, pccl, nccl, mpi, torch");
}

} // namespace
} // namespace prof::cli
