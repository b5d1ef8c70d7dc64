// prof-workload: a small, real program for prof's end-to-end tests. It burns
// CPU on threads, allocates and touches memory, forks children, leaves an
// orphan behind, and ends with a chosen exit code or signal.
//
//   prof-workload [--threads N] [--seconds S] [--alloc-mb M] [--children N]
//                 [--orphan-ms MS --marker PATH] [--exit-code C] [--signal SIG]
//                 [--print TEXT] [--quiet] [--spawn N] [--vfork N] [--lock-wait-ms MS]
//                 [--ranges N [--range-name NAME[@DOMAIN]]]
// --ranges N splits the work into 2N equal phases and marks every second
// one with prof_start()/prof_stop() (prof --capture-range profiler-api), or
// with --range-name as an annotation range (--capture-range annotation).
// --spawn and --vfork start N copies of itself (--seconds S --quiet) with
// posix_spawn and with vfork+exec, and wait for them.
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <pthread.h>
#include <spawn.h>
#include <unistd.h>
#include <vector>

#include <prof/profiler_api.h>

namespace {

struct Options {
  long threads = 1;
  long lock_wait_ms = 0; ///< main blocks this long on a mutex another thread holds
  double seconds = 0.5;
  long alloc_mb = 0;
  long children = 0;
  long spawned = 0; ///< children started with posix_spawn
  long vforked = 0; ///< children started with vfork + exec
  bool wait_children = true;
  long orphan_ms = -1;
  std::string marker;
  long exit_code = 0;
  long signal = 0;
  std::vector<std::string> prints;
  bool quiet = false;
  long ranges = 0;
  std::string range_name, range_domain;
};

[[noreturn]] void usage_error(const std::string &message) {
  std::fprintf(stderr, "prof-workload: %s\n", message.c_str());
  std::fprintf(stderr,
               "usage: prof-workload [--threads N] [--seconds S] [--alloc-mb M] [--children N] "
               "[--orphan] [--orphan-ms MS --marker PATH] [--exit-code C] [--signal SIG] "
               "[--print TEXT] [--quiet] [--spawn N] [--vfork N] [--lock-wait-ms MS] "
               "[--ranges N [--range-name NAME[@DOMAIN]]]\n");
  std::exit(2);
}

long parse_long(std::string_view name, std::string_view text, long min, long max) {
  long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    usage_error(std::string(name) + " '" + std::string(text) + "' is not a whole number");
  if (value < min || value > max)
    usage_error(std::string(name) + " " + std::to_string(value) + " is out of range: expected " +
                std::to_string(min) + " to " + std::to_string(max));
  return value;
}

double parse_seconds(std::string_view name, const std::string &text) {
  char *end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(value))
    usage_error(std::string(name) + " '" + text + "' is not a number");
  if (value < 0 || value > 3600)
    usage_error(std::string(name) + " " + text + " is out of range: expected 0 to 3600");
  return value;
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(std::string(arg) + " needs a value");
      return argv[++i];
    };
    if (arg == "--threads") o.threads = parse_long(arg, value(), 0, 256);
    else if (arg == "--lock-wait-ms") o.lock_wait_ms = parse_long(arg, value(), 0, 60000);
    else if (arg == "--seconds") o.seconds = parse_seconds(arg, value());
    else if (arg == "--alloc-mb") o.alloc_mb = parse_long(arg, value(), 0, 1 << 16);
    else if (arg == "--children") o.children = parse_long(arg, value(), 0, 64);
    else if (arg == "--orphan") o.wait_children = false;
    else if (arg == "--spawn") o.spawned = parse_long(arg, value(), 0, 64);
    else if (arg == "--vfork") o.vforked = parse_long(arg, value(), 0, 64);
    else if (arg == "--orphan-ms") o.orphan_ms = parse_long(arg, value(), 0, 600000);
    else if (arg == "--marker") o.marker = value();
    else if (arg == "--exit-code") o.exit_code = parse_long(arg, value(), 0, 255);
    else if (arg == "--signal") o.signal = parse_long(arg, value(), 1, 64);
    else if (arg == "--print") o.prints.push_back(value());
    else if (arg == "--quiet") o.quiet = true;
    else if (arg == "--ranges") o.ranges = parse_long(arg, value(), 0, 1000);
    else if (arg == "--range-name") {
      const std::string name = value();
      const size_t at = name.find('@');
      o.range_name = name.substr(0, at);
      if (at != std::string::npos) o.range_domain = name.substr(at + 1);
    }
    else usage_error("unknown argument '" + std::string(arg) + "'");
  }
  if (o.orphan_ms >= 0 && o.marker.empty()) usage_error("--orphan-ms needs --marker PATH");
  if (!o.marker.empty() && o.orphan_ms < 0) usage_error("--marker needs --orphan-ms MS");
  return o;
}

std::atomic<double> sink{0};

// Real arithmetic until the deadline, so the CPU counters see it.
void burn(std::chrono::steady_clock::time_point deadline) {
  double acc = 1.0;
  unsigned long n = 0;
  do {
    for (int k = 0; k < 20000; ++k) {
      acc = std::sqrt(acc * 1.0000001 + static_cast<double>(++n & 1023));
    }
  } while (std::chrono::steady_clock::now() < deadline);
  sink.store(sink.load(std::memory_order_relaxed) + acc, std::memory_order_relaxed);
}

// Allocates and touches `mb` MiB, then burns CPU on `threads` threads for
// `seconds`, keeping the memory until the end.
void work(long threads, double seconds, long mb) {
  std::vector<char> memory;
  if (mb > 0) {
    memory.resize(static_cast<size_t>(mb) << 20);
    const long page = sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < memory.size(); i += static_cast<size_t>(page))
      memory[i] = static_cast<char>(i);
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(seconds));
  std::vector<std::thread> pool;
  for (long t = 1; t < threads; ++t) pool.emplace_back(burn, deadline);
  if (threads > 0) burn(deadline);
  else std::this_thread::sleep_until(deadline);
  for (auto &t : pool) t.join();
  if (!memory.empty()) sink.store(sink.load() + memory[memory.size() / 2]);
}

void write_marker(const std::string &path) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) _exit(3);
  std::fprintf(f, "orphan %d done\n", static_cast<int>(getpid()));
  std::fclose(f);
}

// vfork + exec in a frame of its own, so nothing of the caller's can be
// clobbered while the child borrows the stack.
__attribute__((noinline)) pid_t vfork_exec(char **argv) {
  const pid_t pid = vfork();
  if (pid == 0) {
    execve("/proc/self/exe", argv, environ);
    _exit(127);
  }
  return pid;
}

// Blocks the calling thread for about `ms` on a mutex a helper thread holds,
// and prints how long the lock call really waited ("lock wait: NS ns"): a
// wait of known length for OS runtime tracing to see.
void wait_on_held_mutex(long ms) {
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  std::atomic<bool> held{false};
  std::thread holder([&] {
    pthread_mutex_lock(&mutex);
    held = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    pthread_mutex_unlock(&mutex);
  });
  while (!held) std::this_thread::yield();
  const auto begin = std::chrono::steady_clock::now();
  pthread_mutex_lock(&mutex);
  const auto waited = std::chrono::steady_clock::now() - begin;
  pthread_mutex_unlock(&mutex);
  holder.join();
  std::printf("lock wait: %lld ns\n",
              static_cast<long long>(std::chrono::nanoseconds(waited).count()));
}

} // namespace

int main(int argc, char **argv) {
  const Options o = parse(argc, argv);
  for (const auto &text : o.prints) std::printf("%s\n", text.c_str());
  std::fflush(stdout);

  std::vector<pid_t> children;
  for (long c = 0; c < o.children; ++c) {
    const pid_t pid = fork();
    if (pid < 0) {
      std::perror("prof-workload: fork");
      return 1;
    }
    if (pid == 0) {
      work(o.threads, o.seconds, o.alloc_mb);
      _exit(0);
    }
    children.push_back(pid);
  }
  if (o.orphan_ms >= 0) {
    const pid_t pid = fork();
    if (pid < 0) {
      std::perror("prof-workload: fork");
      return 1;
    }
    if (pid == 0) {
      // Outlive the parent: wait for it to go, then the extra time.
      const pid_t parent = getppid();
      while (getppid() == parent) usleep(1000);
      usleep(static_cast<useconds_t>(o.orphan_ms) * 1000);
      write_marker(o.marker);
      _exit(0);
    }
  }

  // Copies of this program, started the two ways that bypass fork().
  const std::string seconds = std::to_string(o.seconds);
  char *copy_argv[] = {argv[0], const_cast<char *>("--seconds"), const_cast<char *>(seconds.c_str()),
                       const_cast<char *>("--quiet"), nullptr};
  for (long c = 0; c < o.spawned; ++c) {
    pid_t pid = 0;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, copy_argv, environ) == 0)
      children.push_back(pid);
  }
  for (long c = 0; c < o.vforked; ++c)
    if (const pid_t pid = vfork_exec(copy_argv); pid > 0) children.push_back(pid);

  if (o.lock_wait_ms > 0) wait_on_held_mutex(o.lock_wait_ms);
  if (o.ranges > 0) {
    const double phase = o.seconds / (2.0 * static_cast<double>(o.ranges));
    for (long r = 0; r < o.ranges; ++r) {
      work(o.threads, phase, 0);
      const char *domain = o.range_domain.empty() ? nullptr : o.range_domain.c_str();
      if (o.range_name.empty()) prof_start();
      else prof_capture_range_begin(o.range_name.c_str(), domain);
      work(o.threads, phase, o.alloc_mb);
      if (o.range_name.empty()) prof_stop();
      else prof_capture_range_end(o.range_name.c_str(), domain);
    }
  } else {
    work(o.threads, o.seconds, o.alloc_mb);
  }

  if (o.wait_children) {
    for (pid_t pid : children) {
      int status = 0;
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  if (!o.quiet) {
    std::printf("workload done: threads=%ld seconds=%g\n", o.threads, o.seconds);
    std::fflush(stdout);
  }
  if (o.signal != 0) {
    const rlimit no_core{0, 0}; // SIGSEGV and friends: no core file in the test folders
    setrlimit(RLIMIT_CORE, &no_core);
    std::signal(static_cast<int>(o.signal), SIG_DFL);
    std::raise(static_cast<int>(o.signal));
    // A signal that does not kill (e.g. SIGCHLD) falls through to the exit code.
  }
  return static_cast<int>(o.exit_code);
}
