// Several gcu-train-step processes on one simulated device, attached by
// prof: each process's report holds exactly the device work that process
// launched (the pid in each slice's correlation id says which did), and a
// merge of the reports counts every slice once.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/report_tracks.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/waiting_process.hpp"

#include "core/report/report_merge.hpp"
#include "core/report/report_reader.hpp"
#include "core/report/report_split.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

using prof::testing::DeviceWork;

DeviceWork device_work(const std::string &path) {
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(path)) << path;
  return prof::testing::device_work(reader);
}

class DeviceOwner : public ::testing::Test {
protected:
  void SetUp() override {
    runtime_ = "XDG_RUNTIME_DIR=" + dir_.string();
    for (int i = 0; i < 3; ++i) {
      apps_.push_back(start_waiting({kTrain, "--steps", "100000", "--quiet"}, dir_, {runtime_},
                                    "app" + std::to_string(i)));
      pids_ += (i == 0 ? "" : ",") + std::to_string(apps_.back()->pid());
    }
  }
  RunResult attach(const std::string &output) const {
    return run_process({"/usr/bin/env", runtime_, kProf, "attach", "--enable-activities", "all",
                        "--duration", "1", "-o", output, pids_},
                       dir_, 120s);
  }
  std::string file(const std::string &name) const { return (dir_ / name).string(); }

  prof::testing::ScratchDir scratch_{"prof-device-owner",
                                     prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
  std::string runtime_;
  std::string pids_;
  std::vector<std::unique_ptr<Background>> apps_;
};

// `prof attach -o x%p PID1,PID2,PID3`: a report per process.
TEST_F(DeviceOwner, EachProcessReportHoldsItsOwnKernelsAndTheirMergeEachOnce) {
  const RunResult r = attach("x%p");
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::vector<std::string> parts;
  size_t own_events = 0, shared_events = 0;
  DeviceWork sum;
  for (const auto &app : apps_) {
    const int pid = app->pid();
    parts.push_back(file("x" + std::to_string(pid) + ".profrep"));
    const DeviceWork part = device_work(parts.back());
    SCOPED_TRACE(parts.back());
    ASSERT_EQ(part.by_launcher.size(), 1u) << "only one process's work";
    EXPECT_GT(part.by_launcher.at(pid), 0u);
    EXPECT_EQ(part.by_owner, part.by_launcher);
    sum.by_launcher[pid] = part.by_launcher.at(pid);
    if (shared_events == 0) shared_events = part.shared_events;
    EXPECT_EQ(part.shared_events, shared_events) << "the device's tracks alike in every part";
    own_events += part.events - part.shared_events;
  }
  const std::string merged = file("merged.profrep");
  report::write_merge(report::plan_merge(parts), merged, false);
  const DeviceWork all = device_work(merged);
  // The merge tags correlation ids by input: the owner says whose.
  EXPECT_EQ(all.by_owner, sum.by_launcher) << "each process's kernels once";
  EXPECT_EQ(all.events, own_events + shared_events) << "the device's tracks once";
}

// One report of the three over one window, split by process as `%p` does:
// the parts' device work adds up to the whole's, and their merge is the whole.
TEST_F(DeviceOwner, OneCaptureSplitByProcessMergesBackToTheWhole) {
  const RunResult r = attach("whole");
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string whole_path = file("whole.profrep");
  const DeviceWork whole = device_work(whole_path);
  ASSERT_EQ(whole.by_launcher.size(), 3u) << r.describe();
  EXPECT_EQ(whole.by_owner, whole.by_launcher) << "each stream is its launcher's";

  std::map<int, int> group_of_pid;
  for (const auto &app : apps_)
    group_of_pid.emplace(app->pid(), static_cast<int>(group_of_pid.size()));
  const auto outputs = report::split_report(
      whole_path,
      [&](const report::TrackRecord &process) {
        const auto found = group_of_pid.find(process.pid);
        return found == group_of_pid.end() ? -1 : found->second;
      },
      [&](int group) { return file("part" + std::to_string(group) + ".profrep"); },
      [](int, report::Header &) {}, false, false);
  ASSERT_EQ(outputs.size(), 3u);
  std::vector<std::string> parts;
  for (const auto &[pid, group] : group_of_pid) {
    parts.push_back(file("part" + std::to_string(group) + ".profrep"));
    const DeviceWork part = device_work(parts.back());
    EXPECT_EQ(part.by_launcher, (std::map<int, size_t>{{pid, whole.by_launcher.at(pid)}}))
        << "exactly the kernels process " << pid << " launched";
  }
  const std::string merged = file("merged.profrep");
  report::write_merge(report::plan_merge(parts), merged, false);
  const DeviceWork all = device_work(merged);
  EXPECT_EQ(all.by_owner, whole.by_launcher);
  EXPECT_EQ(all.events, whole.events) << "nothing counted twice, nothing lost";

  // `prof stats` of the whole: a section of kernels per process, its own.
  std::map<int, uint64_t> kernels; // by the pid of their track's owner
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(whole_path));
  for (const prof_event &e : reader.read_all_events())
    if (e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_KERNEL)
      if (const report::TrackRecord *track = reader.track(e.track); track && track->pid != 0)
        ++kernels[track->pid];
  ASSERT_EQ(kernels.size(), 3u);
  const RunResult stats = run_process(
      {kProf, "stats", "--report", "kernels", "--format", "csv", whole_path}, dir_, 120s);
  ASSERT_EQ(stats.exit_code, 0) << stats.describe();
  std::map<int, uint64_t> by_section; // Process,Time(%),Time(ns),Calls,...: calls by "(pid)"
  for (const std::string &line : split_lines(stats.out)) {
    const size_t open = line.find(" ("), close = line.find("),");
    if (line.starts_with("#") || open == std::string::npos || close == std::string::npos) continue;
    const int pid = std::stoi(line.substr(open + 2, close - open - 2));
    size_t field = close + 2;
    for (int skip = 0; skip < 2; ++skip)
      field = line.find(',', field) + 1;
    by_section[pid] += std::stoull(line.substr(field, line.find(',', field) - field));
  }
  EXPECT_EQ(by_section, kernels) << stats.out;
}

} // namespace
} // namespace prof::e2e
