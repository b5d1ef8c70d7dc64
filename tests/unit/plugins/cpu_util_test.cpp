// Pure logic of the cpu-util source: /proc parsing, utilization, the
// process-tree CPU meter and the sampler on an in-memory /proc.
#include "fake_proc_fs.hpp"
#include "meminfo.hpp"
#include "proc_pid.hpp"
#include "proc_stat.hpp"
#include "process_tree.hpp"
#include "system_sampler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <linux/kcmp.h>
#include <memory>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace prof::cpu_util {
namespace {

using prof::testing::FakeProcFs;

constexpr const char *kProcStat = "cpu  10132153 290696 3084719 46828483 16683 0 25195 0 175628 0\n"
                                  "cpu0 1393280 32966 572056 13343292 6130 0 17875 0 23933 0\n"
                                  "cpu1 1335998 33220 479244 10727054 2935 0 1797 0 48222 0\n"
                                  "cpu10 100 0 0 900 0 0 0 0 0 0\n"
                                  "intr 199292 0 9 0 0 0 0 3 0 1 0 0 0 0 0\n"
                                  "ctxt 12345678\n"
                                  "btime 1700000000\n"
                                  "processes 123456\n"
                                  "procs_running 2\n"
                                  "procs_blocked 0\n";

constexpr const char *kMeminfo = "MemTotal:       16384000 kB\n"
                                 "MemFree:         2048000 kB\n"
                                 "MemAvailable:    4096000 kB\n"
                                 "Buffers:          512000 kB\n"
                                 "Cached:          3072000 kB\n"
                                 "HugePages_Total:       0\n"
                                 "Hugepagesize:       2048 kB\n";

constexpr const char *kPidStat =
    "4242 (my (app) x) S 4000 4242 4000 34816 4242 4194304 1234 0 0 0 150 30 7 3 20 0 4 0 "
    "987654 123456789 2500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";

constexpr const char *kPidStatus = "Name:\tmy (app) x\n"
                                   "State:\tS (sleeping)\n"
                                   "VmPeak:\t  300000 kB\n"
                                   "VmHWM:\t   12000 kB\n"
                                   "VmRSS:\t   10000 kB\n"
                                   "Threads:\t4\n";

TEST(ProcStatTest, ParsesAggregateAndPerCpuLines) {
  const auto times = parse_proc_stat(kProcStat);
  ASSERT_TRUE(times);
  EXPECT_EQ(times->all.user, 10132153u);
  EXPECT_EQ(times->all.nice, 290696u);
  EXPECT_EQ(times->all.idle, 46828483u);
  EXPECT_EQ(times->all.softirq, 25195u);
  ASSERT_EQ(times->per_cpu.size(), 3u);
  EXPECT_EQ(times->per_cpu[0].first, 0);
  EXPECT_EQ(times->per_cpu[1].first, 1);
  EXPECT_EQ(times->per_cpu[2].first, 10);
  EXPECT_EQ(times->per_cpu[1].second.system, 479244u);
}

TEST(ProcStatTest, RejectsTextWithoutCpuLine) {
  EXPECT_FALSE(parse_proc_stat("intr 1 2 3\nctxt 4\n"));
  EXPECT_FALSE(parse_proc_stat(""));
}

TEST(ProcStatTest, TotalLeavesGuestOutBecauseUserHoldsIt) {
  const auto times = parse_proc_stat(kProcStat);
  ASSERT_TRUE(times);
  const CpuTicks &t = times->all;
  EXPECT_EQ(t.total(),
            t.user + t.nice + t.system + t.idle + t.iowait + t.irq + t.softirq + t.steal);
}

TEST(ProcStatTest, UtilizationIsBusyShareOfTheDelta) {
  CpuTicks before{100, 0, 50, 800, 50, 0, 0, 0};
  CpuTicks after{150, 0, 70, 860, 60, 0, 0, 0};
  // busy +70 of total +140
  EXPECT_DOUBLE_EQ(cpu_utilization(before, after), 50.0);
  CpuTicks with_irq_steal = after;
  with_irq_steal.irq += 10;
  with_irq_steal.softirq += 10;
  with_irq_steal.steal += 20;
  // busy +110 of total +180
  EXPECT_NEAR(cpu_utilization(before, with_irq_steal), 100.0 * 110 / 180, 1e-9);
}

TEST(ProcStatTest, UtilizationWithoutElapsedTimeIsZero) {
  CpuTicks same{100, 0, 50, 800, 50, 0, 0, 0};
  EXPECT_EQ(cpu_utilization(same, same), 0.0);
  CpuTicks earlier{90, 0, 50, 700, 50, 0, 0, 0};
  EXPECT_EQ(cpu_utilization(same, earlier), 0.0); // counters went backwards
}

TEST(MeminfoTest, UsedIsTotalMinusAvailable) {
  const auto memory = parse_meminfo(kMeminfo);
  ASSERT_TRUE(memory);
  EXPECT_EQ(memory->total_bytes, 16384000ull * 1024);
  EXPECT_EQ(memory->available_bytes, 4096000ull * 1024);
  EXPECT_EQ(memory->used_bytes(), 12288000ull * 1024);
  EXPECT_DOUBLE_EQ(memory->used_percent(), 75.0);
}

TEST(MeminfoTest, EstimatesAvailableOnOldKernels) {
  const auto memory = parse_meminfo("MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\n"
                                    "Cached: 250 kB\n");
  ASSERT_TRUE(memory);
  EXPECT_EQ(memory->available_bytes, 400u * 1024);
  EXPECT_DOUBLE_EQ(memory->used_percent(), 60.0);
  EXPECT_FALSE(parse_meminfo("MemFree: 100 kB\n"));
}

TEST(PidStatTest, ParsesCommandWithSpacesAndParentheses) {
  const auto stat = parse_pid_stat(kPidStat);
  ASSERT_TRUE(stat);
  EXPECT_EQ(stat->pid, 4242);
  EXPECT_EQ(stat->comm, "my (app) x");
  EXPECT_EQ(stat->state, 'S');
  EXPECT_EQ(stat->ppid, 4000);
  EXPECT_EQ(stat->utime, 150u);
  EXPECT_EQ(stat->stime, 30u);
  EXPECT_EQ(stat->cutime, 7u);
  EXPECT_EQ(stat->cstime, 3u);
  EXPECT_EQ(stat->start_time, 987654u);
  EXPECT_EQ(stat->rss_pages, 2500u);
  EXPECT_EQ(stat->own_ticks(), 180u);
  EXPECT_EQ(stat->child_ticks(), 10u);
}

TEST(PidStatTest, RejectsTruncatedText) {
  EXPECT_FALSE(parse_pid_stat("4242 (app) S 1 2 3"));
  EXPECT_FALSE(parse_pid_stat("4242 app S 1"));
  EXPECT_FALSE(parse_pid_stat(""));
}

TEST(PidStatusTest, ReadsRssAndHighWaterMark) {
  const ProcessMemory memory = parse_pid_status(kPidStatus);
  EXPECT_EQ(memory.rss_bytes, 10000u * 1024);
  EXPECT_EQ(memory.hwm_bytes, 12000u * 1024);
  // A kernel thread has neither line.
  const ProcessMemory kernel = parse_pid_status("Name:\tkthreadd\nState:\tS (sleeping)\n");
  EXPECT_FALSE(kernel.rss_bytes);
  EXPECT_FALSE(kernel.hwm_bytes);
}

ProcessStat process(int pid, int ppid, uint64_t utime, uint64_t cutime = 0,
                    uint64_t start_time = 1000, char state = 'S') {
  ProcessStat stat;
  stat.pid = pid;
  stat.ppid = ppid;
  stat.utime = utime;
  stat.cutime = cutime;
  stat.start_time = start_time;
  stat.state = state;
  return stat;
}

std::vector<int> pids_of(const ProcessTreeSnapshot &snapshot) {
  std::vector<int> pids;
  for (const ProcessStat &member : snapshot.members)
    pids.push_back(member.pid);
  return pids;
}

TEST(ProcessTreeTest, TableGivesRootAndAllDescendants) {
  const std::vector<ProcessStat> table{process(12, 11, 0), process(20, 1, 0),  process(10, 1, 0),
                                       process(11, 10, 0), process(13, 10, 0), process(14, 12, 0)};
  const auto snapshot = tree_from_table(table, 10);
  auto pids = pids_of(snapshot);
  EXPECT_EQ(pids.front(), 10);
  std::sort(pids.begin(), pids.end());
  EXPECT_EQ(pids, (std::vector<int>{10, 11, 12, 13, 14}));
  EXPECT_TRUE(tree_from_table(table, 99).members.empty());
}

TEST(ProcessTreeTest, ReadsThroughChildrenFilesOrByScanning) {
  FakeProcFs fs;
  fs.set_process(10, 1, 0);
  fs.set_process(11, 10, 0);
  fs.set_process(12, 11, 0);
  fs.set_process(20, 1, 0);
  fs.children_of[10] = {11};
  fs.children_of[11] = {12, 15}; // 15 exits before its stat is read
  EXPECT_EQ(pids_of(read_process_tree(fs, 10)), (std::vector<int>{10, 11, 12}));
  fs.has_children_files = false;
  EXPECT_EQ(pids_of(read_process_tree(fs, 10)), (std::vector<int>{10, 11, 12}));
  EXPECT_TRUE(read_process_tree(fs, 99).members.empty());
}

TEST(ProcessTreeCpuMeterTest, CountsReapedChildrenOnce) {
  ProcessTreeCpuMeter meter;
  EXPECT_FALSE(meter.update({{process(10, 1, 100), process(11, 10, 50)}}));
  EXPECT_EQ(meter.update({{process(10, 1, 110), process(11, 10, 70)}}), 30u);
  // 11 ran 5 more ticks, exited and was reaped: its 75 moved into 10's cutime.
  EXPECT_EQ(meter.update({{process(10, 1, 120, 75)}}), 15u);
  // A new child that ran 5 ticks since the last snapshot.
  EXPECT_EQ(meter.update({{process(10, 1, 125, 75), process(14, 10, 5)}}), 10u);
  // The root was reaped outside the tree and 14 went to init: nothing new ran.
  EXPECT_EQ(meter.update({{}}), 0u);
}

TEST(ProcessTreeCpuMeterTest, ChildReapedBetweenTheReadsOfParentAndChildCountsOnce) {
  ProcessTreeCpuMeter meter;
  meter.update({{process(10, 1, 100), process(11, 10, 50)}});
  // 10 was read before it reaped 11, and 11 was gone when its turn came:
  // the snapshot misses 11's 60 ticks, and the sum drops.
  EXPECT_EQ(meter.update({{process(10, 1, 102)}}), 0u);
  // Now 10's cutime holds them: only what ran since, 2 + 10 + 3, is new.
  EXPECT_EQ(meter.update({{process(10, 1, 105, 60)}}), 15u);
  EXPECT_EQ(meter.update({{process(10, 1, 107, 60)}}), 2u);
}

TEST(ProcessTreeCpuMeterTest, ADropNeverPaidOffIsForgotten) {
  ProcessTreeCpuMeter meter;
  meter.update({{process(10, 1, 100), process(11, 10, 50)}});
  // 11 left the tree without its time reaching 10's cutime.
  EXPECT_EQ(meter.update({{process(10, 1, 100)}}), 0u);
  EXPECT_EQ(meter.update({{process(10, 1, 101)}}), 0u);
  EXPECT_EQ(meter.update({{process(10, 1, 102)}}), 0u);
  EXPECT_EQ(meter.update({{process(10, 1, 110)}}), 8u);
}

TEST(ProcessTreeCpuMeterTest, ChildOfZombieIsNotExpectedInItsCutime) {
  ProcessTreeCpuMeter meter;
  meter.update({{process(10, 1, 100), process(11, 10, 20), process(12, 11, 30)}});
  // 11 exited (zombie, not yet reaped), 12 was reparented out of the tree.
  EXPECT_EQ(meter.update({{process(10, 1, 104), process(11, 10, 20, 0, 1000, 'Z')}}), 4u);
}

TEST(ProcessTreeCpuMeterTest, ReusedPidIsANewProcess) {
  ProcessTreeCpuMeter meter;
  meter.update({{process(10, 1, 100), process(11, 10, 50, 0, 1000)}});
  // 11 exited and was reaped by 10; a new 11 started and ran 3 ticks.
  EXPECT_EQ(meter.update({{process(10, 1, 100, 50), process(11, 10, 3, 0, 2000)}}), 3u);
}

TEST(ProcessTreeCpuMeterTest, ResetPrimesAgain) {
  ProcessTreeCpuMeter meter;
  meter.update({{process(10, 1, 100)}});
  meter.reset();
  EXPECT_FALSE(meter.update({{process(10, 1, 500)}}));
  EXPECT_EQ(meter.update({{process(10, 1, 510)}}), 10u);
}

class SystemSamplerTest : public ::testing::Test {
protected:
  void SetUp() override {
    fs.files["stat"] = "cpu  100 0 50 800 50 0 0 0 0 0\n"
                       "cpu0 50 0 25 400 25 0 0 0 0 0\n"
                       "cpu1 50 0 25 400 25 0 0 0 0 0\n";
    fs.files["meminfo"] = kMeminfo;
    fs.set_process(10, 1, 100, 0, 1000, 100);
    fs.set_process(11, 10, 50, 0, 1000, 50);
    fs.children_of[10] = {11};
    fs.files["10/status"] = kPidStatus;
    options.target_pid = 10;
    options.ticks_per_second = 100;
    options.page_size = 4096;
  }
  void advance() {
    fs.files["stat"] = "cpu  150 0 70 860 60 0 0 0 0 0\n"
                       "cpu0 50 0 25 470 25 0 0 0 0 0\n"
                       "cpu1 100 0 45 430 25 0 0 0 0 0\n";
    fs.set_process(10, 1, 110, 0, 1000, 300);
    fs.set_process(11, 10, 70, 0, 1000, 50);
  }
  FakeProcFs fs;
  SamplerOptions options;
};

TEST_F(SystemSamplerTest, FirstTickPrimesCpuButReportsMemory) {
  SystemSampler sampler(fs, options);
  const Sample first = sampler.take(1'000'000'000);
  EXPECT_FALSE(first.cpu_total_percent);
  EXPECT_TRUE(first.cpu_percent.empty());
  EXPECT_FALSE(first.tree_cpu_percent);
  EXPECT_EQ(first.tree_rss_bytes, 150.0 * 4096);
  EXPECT_EQ(first.root_rss_hwm_bytes, 12000.0 * 1024);
  EXPECT_EQ(first.memory_used_bytes, 12288000.0 * 1024);
  EXPECT_EQ(first.memory_used_percent, 75.0);
}

TEST_F(SystemSamplerTest, SecondTickHasUtilization) {
  SystemSampler sampler(fs, options);
  sampler.take(1'000'000'000);
  advance();
  const Sample second = sampler.take(1'500'000'000);
  ASSERT_TRUE(second.cpu_total_percent);
  EXPECT_DOUBLE_EQ(*second.cpu_total_percent, 50.0);
  ASSERT_EQ(second.cpu_percent.size(), 2u);
  EXPECT_EQ(second.cpu_percent[0].first, 0);
  EXPECT_DOUBLE_EQ(second.cpu_percent[0].second, 0.0);  // idle only went up
  EXPECT_DOUBLE_EQ(second.cpu_percent[1].second, 70.0); // busy +70 of 100
  // 30 ticks at 100 per second in half a second: 0.3 s / 0.5 s = 60% of one CPU.
  ASSERT_TRUE(second.tree_cpu_percent);
  EXPECT_NEAR(*second.tree_cpu_percent, 60.0, 1e-9);
  EXPECT_EQ(second.tree_rss_bytes, 350.0 * 4096);
  EXPECT_EQ(second.tree_rss_peak_bytes, 350.0 * 4096);
}

TEST_F(SystemSamplerTest, PeakKeepsTheLargestTreeRss) {
  SystemSampler sampler(fs, options);
  advance();
  sampler.take(1'000'000'000);
  fs.set_process(10, 1, 120, 0, 1000, 10);
  const Sample later = sampler.take(2'000'000'000);
  EXPECT_EQ(later.tree_rss_bytes, 60.0 * 4096);
  EXPECT_EQ(later.tree_rss_peak_bytes, 350.0 * 4096);
}

TEST_F(SystemSamplerTest, DisabledPartsAndMissingTargetAreAbsent) {
  options.memory = false;
  SystemSampler cpu_only(fs, options);
  cpu_only.take(1);
  advance();
  const Sample sample = cpu_only.take(1'000'000'001);
  EXPECT_TRUE(sample.cpu_total_percent);
  EXPECT_TRUE(sample.tree_cpu_percent);
  EXPECT_FALSE(sample.tree_rss_bytes);
  EXPECT_FALSE(sample.memory_used_bytes);

  options = SamplerOptions{};
  options.cpu = false;
  options.target_pid = 77; // not running
  SystemSampler memory_only(fs, options);
  const Sample memory = memory_only.take(1);
  EXPECT_FALSE(memory.cpu_total_percent);
  EXPECT_FALSE(memory.tree_rss_bytes);
  EXPECT_TRUE(memory.memory_used_bytes);
}

// prof holds the application before its exec in prof's own address space:
// what /proc says of its memory then is prof's, never the application's.
TEST_F(SystemSamplerTest, AnApplicationHeldInOurMemoryHasNoMemoryFiguresYet) {
  fs.in_our_memory.insert(10);
  SystemSampler sampler(fs, options);
  const Sample held = sampler.take(1'000'000'000);
  EXPECT_FALSE(held.tree_rss_bytes);
  EXPECT_FALSE(held.tree_rss_peak_bytes);
  EXPECT_FALSE(held.root_rss_hwm_bytes);
  EXPECT_TRUE(held.memory_used_bytes); // the system's figures are the system's
  fs.in_our_memory.clear();            // it has exec'd
  advance();
  const Sample running = sampler.take(1'500'000'000);
  EXPECT_EQ(running.tree_rss_bytes, 350.0 * 4096);
  EXPECT_EQ(running.tree_rss_peak_bytes, 350.0 * 4096) << "prof's memory is no part of the peak";
  EXPECT_TRUE(running.tree_cpu_percent);
  const int asked = fs.memory_questions;
  sampler.take(2'000'000'000);
  EXPECT_EQ(fs.memory_questions, asked) << "once exec'd, a process never shares our memory again";
}

int wait_for_signal(void *) {
  pause();
  return 0;
}

// The real check on real processes: a child made with CLONE_VM (as prof's
// held application is) shares our memory, a forked one and ourselves after
// exec do not.
TEST(SystemProcFsTest, TellsAProcessInOurMemoryFromOneInItsOwn) {
  if (syscall(SYS_kcmp, getpid(), getpid(), KCMP_VM, 0, 0) != 0)
    GTEST_SKIP() << "kcmp is not allowed here (a container's seccomp filter, or the kernel)";
  SystemProcFs fs;
  constexpr size_t kStack = 64 * 1024;
  auto stack = std::make_unique<char[]>(kStack);
  const pid_t held = clone(wait_for_signal, stack.get() + kStack, CLONE_VM | SIGCHLD, nullptr);
  ASSERT_GT(held, 0);
  const pid_t forked = fork();
  ASSERT_GE(forked, 0);
  if (forked == 0) {
    pause();
    _exit(0);
  }
  const pid_t execed = fork();
  ASSERT_GE(execed, 0);
  if (execed == 0) {
    execl("/bin/sleep", "sleep", "30", static_cast<char *>(nullptr));
    _exit(127);
  }
  EXPECT_TRUE(fs.shares_our_memory(held));
  EXPECT_FALSE(fs.shares_our_memory(forked));
  // After its exec a process never shares; before it, a forked one does not either.
  for (int tries = 0; tries < 200 && fs.read(std::to_string(execed) + "/exe") &&
                      fs.read(std::to_string(execed) + "/comm") != "sleep\n";
       ++tries)
    usleep(10'000);
  EXPECT_FALSE(fs.shares_our_memory(execed));
  EXPECT_FALSE(fs.shares_our_memory(999'999'999)); // no such process
  EXPECT_FALSE(fs.shares_our_memory(getpid()));    // ourselves: nothing held
  for (const pid_t pid : {held, forked, execed}) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
}

} // namespace
} // namespace prof::cpu_util
