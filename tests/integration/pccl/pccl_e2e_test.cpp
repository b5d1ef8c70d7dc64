// The pccl source end to end: `prof -t pccl` on a harness that loads the
// plugin through NCCL_PROFILER_PLUGIN and drives it as NCCL does, for each
// interface version, then every event read back from the report.
#include "core/report/report_reader.hpp"
#include "tests/support/background_process.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <prof/event.hpp>

#include <gtest/gtest.h>

#include <gmock/gmock.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
const std::string kHarness = test_program("nccl-harness");
constexpr int kIterations = 20, kChannels = 2;

struct Slice {
  std::string name, category, track, parent_track, grandparent_track;
  prof_track_kind track_kind = PROF_TRACK_CUSTOM;
  uint16_t kind = 0;
  uint64_t ts = 0, duration = 0;
  std::map<std::string, std::string> args;
};

struct Capture {
  std::vector<Slice> slices;
  size_t flow_begins = 0, flow_ends = 0;
  std::set<std::string> comm_tracks;
};

Capture read_capture(const fs::path &path) {
  Capture out;
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(path.string())) << path;
  const auto track_name = [&reader](uint32_t id) {
    const report::TrackRecord *t = reader.track(id);
    return t ? t->name : std::string();
  };
  for (const auto &[id, track] : reader.tracks())
    if (track.kind == PROF_TRACK_COMM) out.comm_tracks.insert(track.name);
  for (const prof_event &e : reader.read_all_events()) {
    if (e.type == PROF_EVENT_FLOW) {
      (e.flags == PROF_FLOW_BEGIN ? out.flow_begins : out.flow_ends) += 1;
      continue;
    }
    if (e.type != PROF_EVENT_SLICE || !reader.string(e.category).starts_with("pccl")) continue;
    const report::TrackRecord *track = reader.track(e.track);
    Slice s{std::string(reader.string(e.name)),
            std::string(reader.string(e.category)),
            track ? track->name : "",
            "",
            "",
            track ? track->kind : PROF_TRACK_CUSTOM,
            e.kind,
            e.ts,
            e.duration,
            {}};
    if (track) {
      s.parent_track = track_name(track->parent);
      if (const report::TrackRecord *parent = reader.track(track->parent))
        s.grandparent_track = track_name(parent->parent);
    }
    if (auto set = reader.args().find(static_cast<uint32_t>(e.args)))
      for (const prof_arg &arg : *set)
        s.args[std::string(reader.string(arg.key))] =
            arg_text(arg, [&reader](prof_string_id id) { return reader.string(id); });
    out.slices.push_back(std::move(s));
  }
  return out;
}

std::vector<Slice> named(const Capture &c, const std::string &name, const std::string &comm = "") {
  std::vector<Slice> out;
  for (const Slice &s : c.slices)
    if (s.name == name &&
        (comm.empty() || s.args.count("communicator") == 0 || s.args.at("communicator") == comm))
      out.push_back(s);
  return out;
}

const std::string kFirst = "NCCL 0xabcdef0123456789"; // 4 ranks, this rank 1
const std::string kSecond = "tp";                     // 2 ranks, this rank 0

class PcclE2E : public ::testing::TestWithParam<int> {
protected:
  Capture capture(const std::vector<std::string> &selection = {"-t", "pccl"}) {
    std::vector<std::string> command = {kProf, "--quiet", "-f", "true"};
    command.insert(command.end(), selection.begin(), selection.end());
    for (const std::string &a :
         {std::string("-o"), (dir_ / "r").string(), kHarness, std::to_string(GetParam())})
      command.push_back(a);
    const RunResult r = run_process(command, dir_, std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 0) << r.describe();
    return read_capture(dir_ / "r.profrep");
  }
  testing::ScratchDir scratch_{"prof-pccl", testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_P(PcclE2E, CollectivesAreCommunicationSlicesWithTheirArguments) {
  const Capture c = capture();
  for (const auto &[comm, ranks, rank] :
       {std::tuple{kFirst, "4", "1"}, std::tuple{kSecond, "2", "0"}}) {
    SCOPED_TRACE(comm);
    const auto reduces = named(c, "AllReduce", comm);
    ASSERT_EQ(reduces.size(), static_cast<size_t>(kIterations));
    std::set<std::string> sequences;
    for (const Slice &s : reduces) {
      EXPECT_EQ(s.kind, PROF_CATEGORY_COMMUNICATION);
      EXPECT_EQ(s.category, "pccl");
      EXPECT_EQ(s.track, std::string("rank ") + rank);
      EXPECT_EQ(s.parent_track, comm + " (" + ranks + " ranks)");
      EXPECT_EQ(s.args.at("bytes"), "4096");
      EXPECT_EQ(s.args.at("count"), "1024");
      EXPECT_EQ(s.args.at("datatype"), "ncclFloat32");
      EXPECT_EQ(s.args.at("root"), "0");
      EXPECT_EQ(s.args.at("algorithm"), "Ring");
      EXPECT_EQ(s.args.at("protocol"), "Simple");
      EXPECT_EQ(s.args.at("channels"), "2");
      EXPECT_EQ(s.args.at("warps"), "8");
      EXPECT_EQ(s.args.at("communicator size"), ranks);
      EXPECT_EQ(s.args.at("rank"), rank);
      sequences.insert(s.args.at("sequence"));
    }
    EXPECT_EQ(sequences.size(), static_cast<size_t>(kIterations)) << "sequences 0..19";
    EXPECT_TRUE(sequences.contains("0") && sequences.contains("19"));

    const auto sends = named(c, "Send", comm);
    ASSERT_EQ(sends.size(), static_cast<size_t>(kIterations / 5));
    for (const Slice &s : sends) {
      EXPECT_EQ(s.kind, PROF_CATEGORY_COMMUNICATION);
      EXPECT_EQ(s.args.at("bytes"), "2048"); // 256 int64
      EXPECT_EQ(s.args.at("peer"), "0");
    }
    size_t groups = 0;
    for (const Slice &s : named(c, "Group"))
      groups += s.parent_track == comm + " (" + ranks + " ranks)";
    EXPECT_EQ(groups, static_cast<size_t>(kIterations));
  }
  // Copy-engine collectives exist from v6 on.
  const auto gathers = named(c, "AllGather");
  EXPECT_EQ(gathers.size(), GetParam() >= 6 ? 2u * kIterations : 0u);
  for (const Slice &s : gathers) {
    EXPECT_EQ(s.kind, PROF_CATEGORY_COMMUNICATION);
    EXPECT_EQ(s.args.at("bytes"), "1024"); // 512 bfloat16
    EXPECT_EQ(s.args.at("sync_strategy"), "barrier");
  }
}

TEST_P(PcclE2E, ProxyKernelAndNetworkEventsSitUnderTheirRankAndChannel) {
  const Capture c = capture();
  // Per communicator: (20 collectives + 4 sends) x 2 channels proxy
  // operations, two steps each, one network event each, one kernel channel each.
  const size_t ops = 2 * (kIterations + kIterations / 5) * kChannels;
  const auto proxy = named(c, "Proxy send");
  ASSERT_EQ(proxy.size(), ops);
  std::map<std::string, size_t> by_operation;
  for (const Slice &s : proxy) {
    EXPECT_EQ(s.category, "pccl proxy");
    EXPECT_EQ(s.track_kind, PROF_TRACK_COMM);
    EXPECT_TRUE(s.parent_track == "rank 1" || s.parent_track == "rank 0") << s.parent_track;
    EXPECT_EQ(s.args.at("steps"), "2");
    EXPECT_EQ(s.args.at("chunk_bytes"), "4096");
    ++by_operation[s.args.at("operation")];
  }
  // Each names the operation it works for, although that one stopped first.
  EXPECT_EQ(by_operation["AllReduce"], 2u * kIterations * kChannels);
  EXPECT_EQ(by_operation["Send"], 2u * (kIterations / 5) * kChannels);
  EXPECT_TRUE(c.comm_tracks.contains("channel 0 send to 2")); // ring peer (1 + 1) % 4
  EXPECT_TRUE(c.comm_tracks.contains("channel 1 send to 1")); // ring peer (0 + 1) % 2
  EXPECT_TRUE(c.comm_tracks.contains("channel 0 send to 0")); // the point-to-point's

  const auto steps = named(c, "Send step");
  ASSERT_EQ(steps.size(), 2 * ops);
  for (const Slice &s : steps)
    EXPECT_EQ(s.args.at("bytes"), "4096");
  const auto network = named(c, "IB work request");
  ASSERT_EQ(network.size(), ops);
  for (const Slice &s : network) {
    EXPECT_EQ(s.args.at("qp"), "9");
    EXPECT_EQ(s.args.at("bytes"), "4096");
    EXPECT_EQ(s.args.at("net_type"), "ib");
  }
  const auto kernels = named(c, "Kernel channel");
  ASSERT_EQ(kernels.size(), ops);
  for (const Slice &s : kernels) {
    EXPECT_EQ(s.category, "pccl kernel");
    EXPECT_EQ(s.args.at("gpu_ns"), "250");
  }
  // Each kernel channel is tied to the operation that launched it.
  EXPECT_EQ(c.flow_begins, ops);
  EXPECT_EQ(c.flow_ends, ops);
  // The proxy thread outside of transfers, in its states.
  for (const std::string state : {"Proxy idle", "Proxy active", "Proxy sleep"})
    EXPECT_EQ(named(c, state).size(), 1u) << state;
  EXPECT_EQ(named(c, "Proxy sleep")[0].args.at("appended_ops"), "3");
}

TEST_P(PcclE2E, TheApplicationsCallsAreOnItsThreadsFromV5On) {
  const Capture c = capture();
  const size_t expected = GetParam() >= 5 ? 2u * kIterations : 0u;
  for (const std::string name : {"ncclAllReduce", "ncclGroup", "ncclKernelLaunch"}) {
    const auto calls = named(c, name);
    EXPECT_EQ(calls.size(), expected) << name;
    for (const Slice &s : calls) {
      EXPECT_EQ(s.kind, PROF_CATEGORY_RUNTIME_API) << name;
      EXPECT_EQ(s.track_kind, PROF_TRACK_THREAD) << name;
    }
  }
  for (const Slice &s : named(c, "ncclAllReduce")) {
    EXPECT_EQ(s.args.at("bytes"), "4096");
    EXPECT_EQ(s.args.at("stream"), "20480"); // 0x5000
  }
  // A point-to-point call's API event, parent of its task (NCCL 2.28's shape).
  const auto sends = named(c, "ncclSend");
  EXPECT_EQ(sends.size(), GetParam() >= 5 ? 2u * (kIterations / 5) : 0u);
  for (const Slice &s : sends) {
    EXPECT_EQ(s.track_kind, PROF_TRACK_THREAD);
    EXPECT_EQ(s.args.at("bytes"), "2048");
  }
}

TEST_P(PcclE2E, CollectivesOnlyLeavesTheProxyOut) {
  const Capture c = capture({"--plugin", "pccl events=collectives"});
  EXPECT_EQ(named(c, "AllReduce").size(), 2u * kIterations);
  EXPECT_EQ(named(c, "Kernel channel").size(), 2u * (kIterations + kIterations / 5) * kChannels);
  EXPECT_TRUE(named(c, "Proxy send").empty());
  EXPECT_TRUE(named(c, "Send step").empty());
  EXPECT_TRUE(named(c, "Proxy idle").empty());
}

// Two ranks of one communicator: rank 1 stops in its own code before
// all-reduce 7, rank 0 enqueued it and its kernel waits. --hang-timeout
// dumps both; the hang report names rank 1, what it is inside (osrt), and
// the all-reduce rank 0 waits in, its later ones queued behind it.
TEST(PcclHang, TheReportNamesTheRankTheOthersWaitFor) {
  testing::ScratchDir scratch{"prof-pccl-hang", testing::ScratchDir::Keep::on_failure};
  const fs::path dir = scratch.path();
  const fs::path release = dir / "release";
  const std::string ranks = "RANK=0 NCCL_HARNESS_RANK=0 NCCL_HARNESS_HANG_AT=7 " + kHarness +
                            " 5 & RANK=1 NCCL_HARNESS_RANK=1 NCCL_HARNESS_STALL_BEFORE=7 " +
                            kHarness + " 5; wait";
  Background job({kProf, "-t", "pccl,osrt", "--osrt-threshold", "1000000", "--flight-recorder",
                  "8M", "--hang-timeout", "2", "-o", (dir / "h").string(), "/bin/sh", "-c", ranks},
                 dir, {"NCCL_HARNESS_RELEASE=" + release.string()}, "job");
  std::vector<fs::path> dumps;
  for (int i = 0; i < 600 && dumps.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (const auto &entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".profrep") dumps.push_back(entry.path());
  }
  std::ofstream(release).put('\n');
  EXPECT_EQ(job.wait(std::chrono::seconds(60)), 0) << job.output();
  EXPECT_THAT(job.output(), ::testing::HasSubstr("all-reduce 7 hangs"));
  EXPECT_THAT(job.output(), ::testing::HasSubstr("stalls before all-reduce 7"));
  ASSERT_FALSE(dumps.empty()) << job.output();
  const RunResult hang = run_process({kProf, "stats", "--report", "hang", dumps.front().string()});
  ASSERT_EQ(hang.exit_code, 0) << hang.describe();
  std::cout << hang.out;
  EXPECT_THAT(hang.out, ::testing::HasSubstr("======== Hang (" + kFirst + "):"));
  EXPECT_THAT(hang.out, ::testing::ContainsRegex(kFirst + ": 1 of 2 ranks wait in AllReduce #7 "
                                                          "\\(for up to [0-9.]+s\\) for "
                                                          "[^\n]*\\(rank 1\\)[^\n]*\\(last "
                                                          "entered #6\\)"));
  EXPECT_THAT(hang.out, ::testing::HasSubstr("communicator=" + kFirst +
                                             ", communicator size=4, "
                                             "rank=0, sequence=7"));
  EXPECT_THAT(hang.out, ::testing::ContainsRegex("\\(rank 1\\)[^\n]* is inside usleep \\(osrt\\)"));
  EXPECT_THAT(hang.out, ::testing::Not(::testing::HasSubstr("Hang (tp)")))
      << "nothing of the other communicator is in flight";
}

// The NCCL installed here (the CUDA toolkit's, NCCL 2.28 on the project's
// machines): the newest profiler table its library looks up, and that the
// harness, asking for that version as NCCL does, records through it.
std::string installed_nccl() {
  for (const char *path : {"/usr/local/cuda/lib/libnccl.so.2", "/usr/local/cuda/lib64/libnccl.so.2",
                           "/usr/lib/x86_64-linux-gnu/libnccl.so.2"})
    if (fs::exists(path)) return path;
  return "";
}

TEST(PcclInstalledNccl, TheNewestTableItAsksForIsExportedAndRecords) {
  const std::string library = installed_nccl();
  if (library.empty()) GTEST_SKIP() << "no libnccl.so.2 installed";
  std::ifstream in(library, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_NE(bytes.find("NCCL_PROFILER_PLUGIN"), std::string::npos) << library;
  int newest = 0;
  const std::string prefix = "ncclProfiler_v";
  for (size_t at = bytes.find(prefix); at != std::string::npos; at = bytes.find(prefix, at + 1)) {
    size_t end = at + prefix.size();
    int version = 0;
    while (end < bytes.size() && bytes[end] >= '0' && bytes[end] <= '9')
      version = version * 10 + (bytes[end++] - '0');
    if (end < bytes.size() && bytes[end] == '\0') newest = std::max(newest, version);
  }
  ASSERT_GE(newest, 4) << library << " looks up no profiler table prof knows";
  std::cout << library << " looks up ncclProfiler_v" << newest << " first\n";

  testing::ScratchDir scratch{"prof-pccl-nccl", testing::ScratchDir::Keep::on_failure};
  const fs::path dir = scratch.path();
  const RunResult r = run_process({kProf, "--quiet", "-t", "pccl", "-o", (dir / "r").string(),
                                   kHarness, std::to_string(newest)},
                                  dir, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const Capture c = read_capture(dir / "r.profrep");
  EXPECT_EQ(named(c, "AllReduce").size(), 2u * kIterations);
  EXPECT_EQ(named(c, "Kernel channel").size(), 2u * (kIterations + kIterations / 5) * kChannels);
}

INSTANTIATE_TEST_SUITE_P(Versions, PcclE2E, ::testing::Values(4, 5, 6),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return "v" + std::to_string(info.param);
                         });

} // namespace
} // namespace prof::e2e
