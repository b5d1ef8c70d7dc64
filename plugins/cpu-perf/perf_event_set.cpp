#include "perf_event_set.hpp"

#include <linux/perf_event.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace prof::cpu_perf {
namespace {

/// x86-64 user registers for DWARF unwinding: AX..IP (0-8) and R8..R15 (16-23).
constexpr uint64_t kX86UserRegs = 0x1ffull | (0xffull << 16);

std::string paranoid_text() {
  const auto level = read_proc_int("/proc/sys/kernel/perf_event_paranoid");
  return level ? std::to_string(*level) : std::string("unknown");
}

bool refused(int err) { return err == EACCES || err == EPERM; }

perf_event_attr base_attr(const CpuPerfOptions &o, int pid) {
  perf_event_attr a{};
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.disabled = 1;
  a.inherit = pid > 0 ? 1 : 0;
  a.sample_id_all = 1;
  a.use_clockid = 1;
  a.clockid = CLOCK_MONOTONIC;
  a.mmap = 1;
  a.mmap2 = 1;
  a.comm = 1;
  a.comm_exec = 1;
  a.task = 1;
  a.context_switch = o.switches ? 1 : 0;
  a.watermark = 1;
  a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
  if (o.scope == Scope::None) {
    a.config = PERF_COUNT_SW_DUMMY;
    return a;
  }
  a.config = PERF_COUNT_SW_CPU_CLOCK;
  if (o.period > 0) {
    a.sample_period = o.period;
  } else {
    a.freq = 1;
    a.sample_freq = static_cast<uint64_t>(o.frequency);
  }
  if (o.backtrace == Backtrace::FramePointer) {
    a.sample_type |= PERF_SAMPLE_CALLCHAIN;
    a.sample_max_stack = static_cast<uint16_t>(o.depth + 8); // + context markers
  } else if (o.backtrace == Backtrace::Dwarf) {
    a.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
    a.sample_regs_user = kX86UserRegs;
    a.sample_stack_user = o.stack_dump_bytes;
    if (o.kernel) {
      a.sample_type |= PERF_SAMPLE_CALLCHAIN; // kernel part only
      a.exclude_callchain_user = 1;
      a.sample_max_stack = static_cast<uint16_t>(o.depth + 8);
    }
  }
  a.exclude_callchain_kernel = o.kernel ? 0 : 1;
  return a;
}

size_t ring_pages(const CpuPerfOptions &o) {
  return o.backtrace == Backtrace::Dwarf ? 512 : 64;
}

} // namespace

int perf_event_open_fd(perf_event_attr &attr, int pid, int cpu, int group_fd,
                       unsigned long flags) {
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, pid, cpu, group_fd, flags));
}

std::vector<int> online_cpus() {
  std::vector<int> cpus;
  std::ifstream in("/sys/devices/system/cpu/online");
  std::string text;
  if (std::getline(in, text)) {
    std::stringstream ranges(text);
    std::string range;
    while (std::getline(ranges, range, ',')) {
      int lo = 0, hi = 0;
      const int n = std::sscanf(range.c_str(), "%d-%d", &lo, &hi);
      if (n == 1) hi = lo;
      if (n >= 1)
        for (int c = lo; c <= hi; ++c) cpus.push_back(c);
    }
  }
  if (cpus.empty())
    for (long c = 0; c < sysconf(_SC_NPROCESSORS_CONF); ++c) cpus.push_back(static_cast<int>(c));
  return cpus;
}

std::string kernel_stacks_refused_message() {
  return "cpu-perf: kernel call stacks are not permitted on this machine (perf_event_paranoid=" +
         paranoid_text() + ")";
}

std::string refused_message() {
  return "cpu-perf: perf_event_open was refused (perf_event_paranoid=" + paranoid_text() +
         "); run as root or lower it";
}

bool hardware_counter_supported(const HardwareCounter &counter, std::string &message) {
  perf_event_attr a{};
  a.size = sizeof a;
  a.type = PERF_TYPE_HARDWARE;
  a.config = counter.config;
  a.disabled = 1;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  const int fd = perf_event_open_fd(a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd >= 0) {
    ::close(fd);
    return true;
  }
  const int err = errno;
  if (refused(err))
    message = refused_message();
  else if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == EINVAL)
    message = "cpu-perf: hardware counter '" + counter.name + "' is not supported on this machine";
  else
    message = "cpu-perf: hardware counter '" + counter.name + "' cannot be opened: " +
              std::strerror(err);
  return false;
}

PerfEventSet::~PerfEventSet() { close(); }

bool PerfEventSet::open(const Host &host, const CpuPerfOptions &o, int pid) {
  close();
  perf_event_attr attr = base_attr(o, pid);
  const std::vector<int> cpus = online_cpus();
  const unsigned long flags = PERF_FLAG_FD_CLOEXEC;
  // The first CPU decides what the kernel permits; the others reuse it.
  int fd = perf_event_open_fd(attr, pid, cpus.front(), -1, flags);
  if (fd < 0 && refused(errno) && o.kernel) {
    host.log(PROF_LOG_WARN, kernel_stacks_refused_message());
    attr.exclude_callchain_kernel = 1;
    fd = perf_event_open_fd(attr, pid, cpus.front(), -1, flags);
  }
  if (fd < 0 && refused(errno)) {
    attr.exclude_kernel = 1; // user-space samples only
    fd = perf_event_open_fd(attr, pid, cpus.front(), -1, flags);
  }
  if (fd < 0) {
    const int err = errno;
    if (refused(err)) host.error(refused_message());
    else if (err == ESRCH)
      host.error("cpu-perf: target process " + std::to_string(pid) + " does not exist");
    else
      host.error(std::string("cpu-perf: perf_event_open failed: ") + std::strerror(err));
    return false;
  }
  kernel_callchains_ = o.kernel && attr.exclude_callchain_kernel == 0 && attr.exclude_kernel == 0;
  if (o.kernel && !kernel_callchains_ && attr.exclude_callchain_kernel == 0)
    host.log(PROF_LOG_WARN, kernel_stacks_refused_message());
  layout_ = RecordLayout{attr.sample_type, attr.sample_regs_user, PERF_FORMAT_ID};
  fds_.push_back(fd);
  for (size_t i = 1; i < cpus.size(); ++i) {
    const int more = perf_event_open_fd(attr, pid, cpus[i], -1, flags);
    if (more < 0) {
      host.error("cpu-perf: perf_event_open on CPU " + std::to_string(cpus[i]) +
                 " failed: " + std::strerror(errno));
      close();
      return false;
    }
    fds_.push_back(more);
  }
  for (int each : fds_) {
    auto ring = std::make_unique<PerfRing>();
    std::string error;
    size_t pages = ring_pages(o);
    while (!ring->map(each, pages, error) && pages > 8) pages /= 2; // mlock limit
    if (!ring->mapped()) {
      host.error("cpu-perf: cannot map the perf ring buffer: " + error);
      close();
      return false;
    }
    rings_.push_back(std::move(ring));
  }
  return open_counters(host, o, pid, attr);
}

bool PerfEventSet::open_counters(const Host &host, const CpuPerfOptions &o, int pid,
                                 const perf_event_attr &base) {
  const std::vector<int> cpus = online_cpus();
  for (size_t c = 0; c < o.counters.size(); ++c) {
    perf_event_attr a{};
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = o.counters[c].config;
    a.disabled = 1;
    a.inherit = base.inherit;
    a.inherit_stat = base.inherit; // a READ record with each thread's count at its exit
    a.exclude_kernel = base.exclude_kernel;
    a.sample_id_all = 1;
    a.sample_type = base.sample_type; // same trailer as the ring's other records
    a.read_format = PERF_FORMAT_ID;
    a.use_clockid = 1;
    a.clockid = base.clockid;
    for (size_t i = 0; i < cpus.size() && i < fds_.size(); ++i) {
      const int fd = perf_event_open_fd(a, pid, cpus[i], -1, PERF_FLAG_FD_CLOEXEC);
      if (fd < 0) {
        std::string message;
        if (hardware_counter_supported(o.counters[c], message) || message.empty())
          message = "cpu-perf: hardware counter '" + o.counters[c].name +
                    "' cannot be opened: " + std::strerror(errno);
        host.error(message);
        close();
        return false;
      }
      CounterFd counter{fd, 0, c};
      ioctl(fd, PERF_EVENT_IOC_ID, &counter.id);
      counter_fds_.push_back(counter);
      if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, fds_[i]) != 0)
        host.log(PROF_LOG_WARN, "cpu-perf: per-thread counts of '" + o.counters[c].name +
                                    "' are unavailable: " + std::strerror(errno));
    }
  }
  return true;
}

void PerfEventSet::enable() {
  for (int fd : fds_) ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  for (const auto &c : counter_fds_) ioctl(c.fd, PERF_EVENT_IOC_ENABLE, 0);
}

void PerfEventSet::disable() {
  for (int fd : fds_) ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
  for (const auto &c : counter_fds_) ioctl(c.fd, PERF_EVENT_IOC_DISABLE, 0);
}

void PerfEventSet::close() {
  rings_.clear();
  for (int fd : fds_) ::close(fd);
  for (const auto &c : counter_fds_) ::close(c.fd);
  fds_.clear();
  counter_fds_.clear();
}

} // namespace prof::cpu_perf
