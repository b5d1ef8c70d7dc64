// `prof attach` to a process in a container: its own pid and mount
// namespaces, its own /tmp and /dev/shm (unshare, as root). prof reaches the
// waiting agent's socket through /proc/PID/root and passes the shared region
// beside its name, as the container's /dev/shm does not hold it. The build
// the container runs is bound into its /tmp at the same path, so the suite
// passes from a clone under /tmp too.
#include "tests/support/background_process.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/report_tracks.hpp"
#include "tests/support/scratch_dir.hpp"

#include "core/report/report_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <thread>
#include <unistd.h>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using prof::testing::device_slices;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

// The first child of `pid`, 0 while it has none.
int child_of(int pid) {
  std::ifstream children("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) +
                         "/children");
  int child = 0;
  children >> child;
  return child;
}

class AttachContainer : public ::testing::Test {
protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "namespaces need root (unshare)";
    const RunResult probe = run_process(
        {"/usr/bin/unshare", "--pid", "--mount", "--fork", "--mount-proc", "/bin/true"}, dir_);
    if (probe.exit_code != 0) GTEST_SKIP() << "cannot make namespaces here: " << probe.describe();
  }
  prof::testing::ScratchDir scratch_{"prof-attach-container",
                                     prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(AttachContainer, AttachReachesAProcessInItsOwnPidAndMountNamespaces) {
  // /tmp (the agent's session folder) and /dev/shm are the container's own.
  // The build is held open (fd 3) across the mount on /tmp and bound back at
  // its own path, which a build under /tmp needs; --no-canonicalize, or mount
  // would resolve the descriptor's path in the new, empty /tmp.
  const std::string build = "'" + kBuildDir.string() + "'";
  const std::string inside =
      "exec 3<" + build + " && mount -t tmpfs none /dev/shm && mount -t tmpfs none /tmp && " +
      "mkdir -p " + build + " && mount --no-canonicalize --bind /proc/self/fd/3 " + build +
      " && exec 3<&- && exec env -u XDG_RUNTIME_DIR PROF_MODE=dynamic LD_PRELOAD=" + kAgent + " " +
      kTrain + " --steps 100000 --quiet";
  Background container({"/usr/bin/unshare", "--pid", "--mount", "--fork", "--mount-proc",
                        "--kill-child", "/bin/sh", "-c", inside},
                       dir_, {}, "container");
  int pid = 0;
  const fs::path socket_inside = "tmp/prof-0/dynamic-1.sock";
  for (int i = 0; i < 500; ++i) {
    pid = child_of(container.pid());
    if (pid > 0 && fs::exists(fs::path("/proc/" + std::to_string(pid) + "/root") / socket_inside))
      break;
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_GT(pid, 0) << container.output();
  ASSERT_TRUE(fs::exists(fs::path("/proc/" + std::to_string(pid) + "/root") / socket_inside))
      << "the agent listens as pid 1 in the container's own /tmp: " << container.output();

  const fs::path report = dir_ / "c.profrep";
  const RunResult r = run_process({"/usr/bin/env", "XDG_RUNTIME_DIR=" + dir_.string(), kProf,
                                   "attach", "--enable-activities", "*/general/operator",
                                   "--duration", "1", "-o", report.string(), std::to_string(pid)},
                                  dir_, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.describe() << container.output();
  EXPECT_THAT(r.out, HasSubstr("PROF is attached to process " + std::to_string(pid)));
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string())) << r.describe();
  EXPECT_EQ(reader.header().pids, std::vector<int32_t>{pid});
  EXPECT_GT(device_slices(reader), 0u) << "the agent wrote to the region it was passed";
  for (const auto &[id, track] : reader.tracks()) {
    if (track.kind != PROF_TRACK_PROCESS) continue;
    EXPECT_EQ(track.pid, pid) << track.name << ": named by the pid prof knows it by";
  }
  EXPECT_EQ(kill(pid, 0), 0) << "detaching leaves the process running";

  // Detached, it waits again: a second capture reaches it the same way.
  const RunResult again =
      run_process({"/usr/bin/env", "XDG_RUNTIME_DIR=" + dir_.string(), kProf, "attach",
                   "--enable-activities", "*/general/operator", "--duration", "1", "-o",
                   (dir_ / "d.profrep").string(), std::to_string(pid)},
                  dir_, 120s);
  EXPECT_EQ(again.exit_code, 0) << again.describe();
  EXPECT_TRUE(fs::exists(dir_ / "d.profrep"));
}

// Its own pid namespace only, the host's files: the agent's socket is in
// the folder prof uses, named by the pid the process has in its namespace.
TEST_F(AttachContainer, AttachReachesAProcessInItsOwnPidNamespaceOnly) {
  const std::string inside =
      "exec env PROF_MODE=dynamic LD_PRELOAD=" + kAgent + " " + kTrain + " --steps 100000 --quiet";
  Background container(
      {"/usr/bin/unshare", "--pid", "--fork", "--kill-child", "/bin/sh", "-c", inside}, dir_,
      {"XDG_RUNTIME_DIR=" + dir_.string()}, "container");
  int pid = 0;
  for (int i = 0; i < 500 && !(pid > 0 && fs::exists(dir_ / "prof" / "dynamic-1.sock")); ++i) {
    pid = child_of(container.pid());
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_TRUE(fs::exists(dir_ / "prof" / "dynamic-1.sock")) << container.output();
  const fs::path report = dir_ / "p.profrep";
  const RunResult r = run_process({"/usr/bin/env", "XDG_RUNTIME_DIR=" + dir_.string(), kProf,
                                   "attach", "--enable-activities", "*/general/operator",
                                   "--duration", "1", "-o", report.string(), std::to_string(pid)},
                                  dir_, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.describe() << container.output();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(report.string())) << r.describe();
  EXPECT_EQ(reader.header().pids, std::vector<int32_t>{pid});
  EXPECT_GT(device_slices(reader), 0u);
}

// prof in the container too: the namespaces are no matter to it.
TEST_F(AttachContainer, AttachFromInsideTheContainer) {
  const std::string dir = dir_.string();
  const std::string script =
      "mount -t tmpfs none /dev/shm || exit 90\n"
      "export XDG_RUNTIME_DIR=" +
      dir +
      "\n"
      "PROF_MODE=dynamic LD_PRELOAD=" +
      kAgent + " " + kTrain +
      " --steps 100000 --quiet &\n"
      "app=$!\n"
      "i=0\n"
      "while [ ! -S " +
      dir +
      "/prof/dynamic-$app.sock ] && [ $i -lt 500 ]; do sleep 0.01; "
      "i=$((i+1)); done\n"
      "echo \"app pid $app\"\n" +
      kProf + " attach --enable-activities '*/general/operator' --duration 1 -o " + dir +
      "/inside.profrep $app\n"
      "rc=$?\n"
      "kill $app\n"
      "exit $rc\n";
  const RunResult r = run_process({"/usr/bin/unshare", "--pid", "--mount", "--fork", "--mount-proc",
                                   "--kill-child", "/bin/sh", "-c", script},
                                  dir_, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const size_t at = r.out.find("app pid ");
  ASSERT_NE(at, std::string::npos) << r.describe();
  const int pid = std::stoi(r.out.substr(at + 8));
  EXPECT_LT(pid, 100) << "a pid of the container's namespace";
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir_ / "inside.profrep").string())) << r.describe();
  EXPECT_EQ(reader.header().pids, std::vector<int32_t>{pid});
  EXPECT_GT(device_slices(reader), 0u);
}

} // namespace
} // namespace prof::e2e
