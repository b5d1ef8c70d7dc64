// Storage that runs out under a capture: the file system of the report, and
// /dev/shm, where the rings shared with the application live. Each case runs
// in a mount namespace of its own (unshare -m, which needs root) over a small
// tmpfs, so nothing else on the machine sees a full file system.
#include "core/report/report_reader.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class FullStorage : public ::testing::Test {
protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root for a private tmpfs mount (unshare -m)";
    const RunResult probe = run_process({"/usr/bin/unshare", "-m", "true"});
    if (probe.exit_code != 0) GTEST_SKIP() << "unshare -m does not work here: " << probe.describe();
  }
  /// Runs `script` with sh in a private mount namespace.
  RunResult in_namespace(const std::string &script) const {
    return run_process({"/usr/bin/unshare", "-m", "--propagation", "private", "sh", "-c", script},
                       out_, std::chrono::seconds(120));
  }
  int app_status() const {
    std::ifstream in(out_ / "app-status");
    int code = -1;
    in >> code;
    return code;
  }
  /// The application: prof-workload for 0.3 s, which ends with 5; the
  /// shell around it leaves that code where the test can read it.
  std::string application() const {
    return "sh -c '" + kWorkload + " --seconds 0.3 --exit-code 5 --quiet; s=$?; echo $s > " +
           (out_ / "app-status").string() + "; exit $s'";
  }

  testing::ScratchDir scratch_{"prof-full-storage", testing::ScratchDir::Keep::on_failure};
  const fs::path out_{scratch_.path()};
};

TEST_F(FullStorage, AFullReportDiskIsOneClearErrorAndAReadablePartialReport) {
  const fs::path disk = out_ / "disk";
  fs::create_directories(disk);
  const RunResult r =
      in_namespace("mount -t tmpfs -o size=64k tmpfs '" + disk.string() + "' && " + kProf +
                   " --plugin-path " + PROF_MARKER_PLUGIN_DIR +
                   " --plugin 'proc-marker count=200000 threads=4' --host-ringbuffer-size 8 -o '" +
                   (disk / "r").string() + "' " + application() + "; status=$?; cp '" +
                   (disk / "r.profrep").string() + "' '" + out_.string() + "'; exit $status");
  EXPECT_EQ(app_status(), 5) << "the application ran to its end: " << r.describe();
  EXPECT_EQ(r.exit_code, 5) << "prof ends with the application's code: " << r.describe();
  EXPECT_THAT(r.err, HasSubstr("cannot write report '" + (disk / "r.profrep").string() +
                               "': No space left on device"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("Generated:")));

  report::ReportReader reader;
  ASSERT_TRUE(reader.open((out_ / "r.profrep").string())) << r.describe();
  EXPECT_FALSE(reader.complete());
  EXPECT_GT(reader.event_count(), 0u);
  const RunResult stats = run_process({kProf, "stats", (out_ / "r.profrep").string()});
  EXPECT_EQ(stats.exit_code, 0) << stats.describe();
  EXPECT_THAT(stats.err, HasSubstr("read up to the last whole chunk"));
}

// A shared-memory mount too small for every ring asked for: prof makes
// fewer rings, and the capture goes on.
TEST_F(FullStorage, ASmallSharedMemoryMountGetsFewerRings) {
  const RunResult r =
      in_namespace("mount -t tmpfs -o size=48m tmpfs /dev/shm && " + kProf + " --plugin-path " +
                   PROF_MARKER_PLUGIN_DIR + " --plugin 'proc-marker count=1000' -o '" +
                   (out_ / "r").string() + "' " + application());
  EXPECT_EQ(app_status(), 5) << "the application ran to its end: " << r.describe();
  EXPECT_EQ(r.exit_code, 5) << r.describe();
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((out_ / "r.profrep").string())) << r.describe();
  EXPECT_TRUE(reader.complete());
}

// Room for a few rings of 2 MB, not for one per thread: the application's
// threads reserve rings until the mount is full, prof says once that it
// is, the threads without a ring lose their events (counted), and the
// capture goes on.
TEST_F(FullStorage, RingsBeyondAFullSharedMemoryMountAreSaidOnce) {
  const RunResult r =
      in_namespace("mount -t tmpfs -o size=25m tmpfs /dev/shm && " + kProf + " --plugin-path " +
                   PROF_MARKER_PLUGIN_DIR + " --plugin 'proc-marker count=100000 threads=48' -o '" +
                   (out_ / "r").string() + "' " + application());
  EXPECT_EQ(app_status(), 5) << "the application ran to its end: " << r.describe();
  EXPECT_EQ(r.exit_code, 5) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("shared memory is full: the application's threads have "));
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((out_ / "r.profrep").string())) << r.describe();
  EXPECT_TRUE(reader.complete());
  EXPECT_GT(reader.event_count(), 0u);
}

// One too small for even that: refused before the application starts, in
// one line that says how much was needed and what to change.
TEST_F(FullStorage, AFullSharedMemoryMountIsRefusedInOneLine) {
  const RunResult r =
      in_namespace("mount -t tmpfs -o size=1m tmpfs /dev/shm && " + kProf + " --plugin-path " +
                   PROF_MARKER_PLUGIN_DIR + " --plugin 'proc-marker count=1000' -o '" +
                   (out_ / "r").string() + "' " + application());
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_THAT(r.err, ::testing::MatchesRegex(
                         "prof: cannot reserve [0-9]+ MiB of shared memory for the application's "
                         "rings: /dev/shm \\([0-9]+ MiB free\\) is full; lower "
                         "--host-ringbuffer-size or give /dev/shm more room \\(in a container, "
                         "e.g. docker run --shm-size\\)\n"));
  EXPECT_FALSE(fs::exists(out_ / "app-status")) << "the application never started";
  EXPECT_FALSE(fs::exists(out_ / "r.profrep")) << "nothing half-written";
}

} // namespace
} // namespace prof::e2e
