// End-to-end tests of the edges a topsprof, asys or nsys user meets first:
// their spellings, stand-alone options, default report names, help per
// subcommand, the visual-profiler folder and the shipped capture profiles.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include "core/report/report_reader.hpp"
#include "tests/support/file_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

const fs::path kSourceDir = PROF_SOURCE_DIR;

std::vector<std::string> files_in(const fs::path &folder) {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(folder))
    names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

std::set<std::string> plugins_of(const fs::path &report_path) {
  report::ReportReader reader;
  std::set<std::string> names;
  if (!reader.open(report_path.string())) return names;
  for (const auto &plugin : reader.header().plugins)
    names.insert(plugin.name);
  return names;
}

class CliEdges : public ::testing::Test {
protected:
  RunResult prof(std::vector<std::string> args, const fs::path &cwd = {}) {
    args.insert(args.begin(), kProf);
    return run_process(args, cwd.empty() ? dir_ : cwd, std::chrono::seconds(120));
  }
  prof::testing::ScratchDir scratch_{"prof-edges", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(CliEdges, VersionAndHelpStandAlone) {
  const RunResult version = prof({"-v"});
  EXPECT_EQ(version.exit_code, 0) << version.describe();
  EXPECT_THAT(version.out, StartsWith("prof "));
  EXPECT_EQ(prof({"--version"}).out, version.out);

  const RunResult both = prof({"--plugin-list", "--version"});
  EXPECT_EQ(both.exit_code, 2) << both.describe();
  EXPECT_EQ(both.err, "prof: --plugin-list must be used alone, not with --version\n");
  EXPECT_EQ(both.out, "");
  const RunResult help = prof({"--help", "--cpu-utilization"});
  EXPECT_EQ(help.exit_code, 2) << help.describe();
  EXPECT_EQ(help.err, "prof: --help must be used alone, not with --cpu-utilization\n");
  EXPECT_EQ(help.out, "");
  const RunResult app = prof({"--version", kWorkload});
  EXPECT_EQ(app.exit_code, 2) << app.describe();
  EXPECT_EQ(app.err,
            "prof: --version must be used alone, not with an application ('" + kWorkload + "')\n");
}

TEST_F(CliEdges, EachSubcommandHelpListsItsOwnOptions) {
  const RunResult attach = prof({"attach", "--help"});
  ASSERT_EQ(attach.exit_code, 0) << attach.describe();
  EXPECT_THAT(attach.out,
              StartsWith("Usage: prof attach [options] PID[,PID...] | --all [--match REGEX]\n"));
  EXPECT_THAT(attach.out, HasSubstr("--match REGEX"));
  EXPECT_THAT(attach.out, HasSubstr("--trace ITEMS"));
  EXPECT_THAT(attach.out, HasSubstr("[application scope]"));
  EXPECT_THAT(attach.out, HasSubstr("[system scope]"));
  EXPECT_THAT(attach.out, Not(HasSubstr("--env-var")));
  EXPECT_EQ(prof({"--help", "attach"}).out, attach.out) << "asys: prof --help SUB";

  const RunResult stop = prof({"stop", "-h"});
  ASSERT_EQ(stop.exit_code, 0) << stop.describe();
  EXPECT_THAT(stop.out, HasSubstr("--session NAME"));
  EXPECT_THAT(stop.out, Not(HasSubstr("--cpu-utilization")));
  const RunResult plugins = prof({"plugins", "--help"});
  EXPECT_EQ(plugins.exit_code, 0) << plugins.describe();
  EXPECT_THAT(plugins.out, HasSubstr("--plugin-path DIR"));
  const RunResult stats = prof({"--help", "stats"});
  EXPECT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_THAT(stats.out, HasSubstr("--report"));

  const RunResult launch = prof({"launch", "--help"});
  EXPECT_THAT(launch.out, Not(HasSubstr("--all"))) << "only attach finds processes";
  const RunResult refused = prof({"stop", "--cpu-utilization"});
  EXPECT_EQ(refused.exit_code, 2) << refused.describe();
  EXPECT_EQ(refused.err, "prof: 'prof stop' takes no --cpu-utilization (see prof stop --help)\n");

  const RunResult top = prof({"--help"});
  for (const char *word : {"profile", "launch", "attach", "status", "sessions", "export"})
    EXPECT_THAT(top.out, HasSubstr("\n  " + std::string(word) + " ")) << word;
}

TEST_F(CliEdges, ForceOverwriteTakesAsysTrueOrFalse) {
  std::ofstream(dir_ / "r.profrep") << "old";
  const std::vector<std::string> capture = {"--cpu-utilization", "-o",        "r",   "--quiet",
                                            kWorkload,           "--seconds", "0.1", "--quiet"};
  std::vector<std::string> no = {"-f", "false"};
  no.insert(no.end(), capture.begin(), capture.end());
  const RunResult refused = prof(no);
  EXPECT_EQ(refused.exit_code, 2) << refused.describe();
  EXPECT_THAT(refused.err, HasSubstr("already exists (use --force-overwrite)"));

  std::vector<std::string> yes = {"-f", "true"};
  yes.insert(yes.end(), capture.begin(), capture.end());
  const RunResult replaced = prof(yes);
  EXPECT_EQ(replaced.exit_code, 0) << replaced.describe();
  EXPECT_GT(fs::file_size(dir_ / "r.profrep"), 3u);

  const RunResult bad = prof({"--force-overwrite=yes", "--cpu-utilization", kWorkload});
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_EQ(bad.err, "prof: --force-overwrite 'yes' is not valid: expected true or false\n");
}

TEST_F(CliEdges, TraceItemsWithoutTheirSourceSayWhatTheyNeed) {
  const RunResult acblas = prof({"-t", "acblas", kWorkload});
  EXPECT_EQ(acblas.exit_code, 2) << acblas.describe();
  EXPECT_THAT(acblas.err, StartsWith("prof: --trace acblas needs a T-Head PPU's ACBLAS library, "
                                     "which prof has no source for (trace items: gcu, osrt,"));
  // An install with plugin osrt alone: prof and that plugin where they go.
  const fs::path install = dir_ / "install";
  fs::create_directories(install / "bin");
  fs::create_directories(install / "lib" / "prof" / "plugins");
  fs::copy_file(kProf, install / "bin" / "prof");
  fs::create_symlink(fs::path(kProf).parent_path() / ".." / "lib" / "prof" / "plugins" /
                         "libprof-osrt.so",
                     install / "lib" / "prof" / "plugins" / "libprof-osrt.so");
  const RunResult nccl =
      run_process({(install / "bin" / "prof").string(), "-t", "osrt,nccl", kWorkload}, dir_,
                  std::chrono::seconds(60));
  EXPECT_EQ(nccl.exit_code, 2) << nccl.describe();
  EXPECT_THAT(nccl.err,
              StartsWith("prof: --trace nccl needs NCCL with its profiler-plugin "
                         "interface and plugin pccl, which is not installed (installed: "));
  EXPECT_EQ(std::count(nccl.err.begin(), nccl.err.end(), '\n'), 1);
  EXPECT_EQ(files_in(dir_), std::vector<std::string>{"install"});
}

TEST_F(CliEdges, ProfileWithoutOutputWritesTheFirstFreeReportIndex) {
  const std::vector<std::string> args = {
      "profile", "--cpu-utilization", "--quiet", kWorkload, "--seconds", "0.1", "--quiet"};
  ASSERT_EQ(prof(args).exit_code, 0);
  const RunResult second = prof(args);
  ASSERT_EQ(second.exit_code, 0) << second.describe();
  EXPECT_EQ(files_in(dir_), (std::vector<std::string>{"report1.profrep", "report2.profrep"}));

  // Under a launcher, each rank's prof names its report after its rank.
  const fs::path ranks = dir_ / "ranks";
  fs::create_directory(ranks);
  for (const char *rank : {"OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_RANK=1"}) {
    std::vector<std::string> env_args = {"/usr/bin/env", rank, kProf};
    env_args.insert(env_args.end(), args.begin(), args.end());
    const RunResult ranked = run_process(env_args, ranks, std::chrono::seconds(120));
    ASSERT_EQ(ranked.exit_code, 0) << ranked.describe();
  }
  EXPECT_EQ(files_in(ranks),
            (std::vector<std::string>{"report1.rank0.profrep", "report1.rank1.profrep"}));

  // topsprof's flat form prints its statistics and writes nothing.
  const fs::path flat = dir_ / "flat";
  fs::create_directory(flat);
  const RunResult printed = prof({"--cpu-utilization", kWorkload, "--seconds", "0.1"}, flat);
  ASSERT_EQ(printed.exit_code, 0) << printed.describe();
  EXPECT_THAT(printed.out, HasSubstr("Counters"));
  EXPECT_TRUE(files_in(flat).empty());
}

TEST_F(CliEdges, VisualProfilerFoldersMergeAsTopsprofUsersCollectThem) {
  // Two "ranks", each into its own folder, then copied into one.
  for (const char *rank : {"rank0/", "rank1/"}) {
    const RunResult r = prof({"--cpu-utilization", "--export-visual-profiler",
                              (dir_ / rank).string(), kWorkload, "--seconds", "0.1"});
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    const auto files = files_in(dir_ / rank);
    ASSERT_EQ(files.size(), 2u) << ::testing::PrintToString(files);
    EXPECT_EQ(fs::path(files[0]).stem(), fs::path(files[1]).stem());
    EXPECT_EQ(fs::path(files[0]).extension(), ".perfetto-trace");
    EXPECT_EQ(fs::path(files[1]).extension(), ".profrep");
    fs::create_directories(dir_ / "all");
    for (const auto &name : files)
      fs::copy_file(dir_ / rank / name, dir_ / "all" / name);
  }
  const RunResult merged = prof({"--visual-profiler-merge-from", (dir_ / "all").string(),
                                 "--visual-profiler-merge-to", (dir_ / "merged.profrep").string()});
  ASSERT_EQ(merged.exit_code, 0) << merged.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "merged.profrep").string()));
  EXPECT_EQ(reader.header().pids.size(), 2u);
}

const std::vector<std::string> kDumpFiles = {"chunks.txt", "configuration.txt", "environment.txt",
                                             "plugins.txt"};

TEST_F(CliEdges, DebugDumpWritesWhatABugReportNeeds) {
  const RunResult r =
      prof({"--debug-dump=dump", "--cpu-utilization", "-o", "r", kWorkload, "--seconds", "0.1"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const fs::path dump = dir_ / "dump";
  EXPECT_THAT(r.out, HasSubstr("debug dump written to " + dump.string() + "\n"));
  ASSERT_EQ(files_in(dump), kDumpFiles);

  const std::string configuration = prof::testing::file_text(dump / "configuration.txt");
  EXPECT_THAT(configuration, HasSubstr("command: " + kWorkload + " --seconds 0.1\n"));
  EXPECT_THAT(configuration, HasSubstr("\n  --debug-dump=dump\n  --cpu-utilization\n"
                                       "  --output=r\n"));
  const std::string plugins = prof::testing::file_text(dump / "plugins.txt");
  EXPECT_THAT(plugins, StartsWith("Plugins:\n  NAME "));
  EXPECT_THAT(plugins, ::testing::ContainsRegex("\n  cpu-util +source +system +[0-9.]+ +1\\.[0-9]+ "
                                                "+/[^ ]*libprof-cpu-util.so\n"));
  EXPECT_THAT(plugins, ::testing::ContainsRegex("\nIn this capture, with the options they ran "
                                                "with:\ncpu-util [0-9.]+ .*frequency=100"));
  const std::string environment = prof::testing::file_text(dump / "environment.txt");
  EXPECT_THAT(environment, StartsWith("prof: prof "));
  EXPECT_THAT(environment, HasSubstr("\nkernel: Linux "));
  EXPECT_THAT(environment, HasSubstr("\nhost: "));
  const std::string chunks = prof::testing::file_text(dump / "chunks.txt");
  EXPECT_THAT(chunks, StartsWith("Report " + (dir_ / "r.profrep").string() + ": "));
  EXPECT_THAT(chunks, HasSubstr(" bytes, complete\n"));
  EXPECT_THAT(chunks, HasSubstr("end chunk: present\n"));
  for (const char *type : {"header", "strings", "tracks", "events", "end"})
    EXPECT_THAT(chunks, ::testing::ContainsRegex(std::string("\n    ") + type + " +[1-9]")) << type;
}

TEST_F(CliEdges, DebugDumpAloneDumpsToProfDebugPidWithoutAReport) {
  const RunResult r = prof({"--debug-dump", "--cpu-utilization", kWorkload, "--seconds", "0.1"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::vector<std::string> files = files_in(dir_);
  ASSERT_EQ(files.size(), 1u) << ::testing::PrintToString(files);
  EXPECT_THAT(files[0], ::testing::MatchesRegex("prof-debug-[0-9]+"));
  EXPECT_EQ(files_in(dir_ / files[0]), kDumpFiles);
  EXPECT_THAT(prof::testing::file_text(dir_ / files[0] / "chunks.txt"),
              StartsWith("No report file was written by this capture"));
}

TEST_F(CliEdges, DebugDumpFolderThatCannotBeWrittenStopsBeforeTheCapture) {
  std::ofstream(dir_ / "file") << "x";
  const std::string folder = (dir_ / "file" / "dump").string();
  const RunResult r = prof({"--debug-dump=" + folder, "--cpu-utilization", kWorkload});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_THAT(r.err, StartsWith("prof: --debug-dump: cannot write to folder '" + folder + "': "));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  EXPECT_EQ(r.out, "");
}

// ---------------------------------------------------------------------------
// The capture profiles shipped in configs/: each is loaded and run.

struct ShippedProfile {
  std::string file;
  std::vector<std::string> app;
  std::vector<std::string> plugins; ///< sources the report must name
};

std::vector<ShippedProfile> shipped_profiles() {
  const std::vector<std::string> busy = {kWorkload, "--threads", "2", "--seconds", "0.3"};
  return {
      {"training-step.yaml", {kTrain}, {"gcu"}},
      {"sip-counters.yaml", {kTrain}, {"gcu", "sip-pmc"}},
      {"cpu-hotspots.yaml", busy, {"cpu-perf"}},
      {"waits.yaml", {kWorkload, "--lock-wait-ms", "50", "--seconds", "0.1"}, {"osrt"}},
      {"host-overview.yaml", busy, {"cpu-util"}},
      {"cpu-utilization.yaml", busy, {"cpu-util"}},
  };
}

class ShippedProfiles : public CliEdges, public ::testing::WithParamInterface<ShippedProfile> {};

TEST_P(ShippedProfiles, LoadsAndCaptures) {
  const ShippedProfile &profile = GetParam();
  std::vector<std::string> args = {"--config", (kSourceDir / "configs" / profile.file).string(),
                                   "-o", "r"};
  args.insert(args.end(), profile.app.begin(), profile.app.end());
  const RunResult r = prof(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("PROF is profiling process"));
  const std::set<std::string> plugins = plugins_of(dir_ / "r.profrep");
  for (const auto &name : profile.plugins)
    EXPECT_TRUE(plugins.count(name)) << name;
}

INSTANTIATE_TEST_SUITE_P(Configs, ShippedProfiles, ::testing::ValuesIn(shipped_profiles()),
                         [](const auto &info) {
                           std::string name = fs::path(info.param.file).stem();
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(ShippedProfileList, EveryProfileInConfigsIsRunByATest) {
  std::set<std::string> tested;
  for (const auto &profile : shipped_profiles())
    tested.insert(profile.file);
  for (const auto &entry : fs::directory_iterator(kSourceDir / "configs")) {
    if (entry.path().extension() != ".yaml") continue;
    EXPECT_TRUE(tested.count(entry.path().filename())) << entry.path().filename();
  }
}

} // namespace
} // namespace prof::e2e
