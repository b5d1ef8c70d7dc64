#include "tools/prof/capture/app_launcher.hpp"

#include "tools/prof/capture/held_child.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace prof::tool {

namespace {
volatile sig_atomic_t forward_to = 0;

void forward_signal(int signal) {
  if (forward_to > 0) kill(forward_to, signal);
}

bool executable(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}
} // namespace

AppLauncher::AppLauncher() = default;

AppLauncher::~AppLauncher() {
  // The held child reads its plan until it execs: let it go (as prof dying
  // would) and wait for that before freeing what it reads.
  if (gate_fd_ >= 0 || exec_error_fd_ >= 0) release();
  if (child_stack_ && !child_may_run_on_stack_) munmap(child_stack_, kChildStackBytes);
}

std::string AppLauncher::resolve(const std::string &name) {
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) return executable(name) ? name : "";
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (executable(candidate)) return candidate;
    start = end + 1;
  }
  return "";
}

std::string AppLauncher::display(const std::vector<std::string> &argv) {
  std::string text;
  for (const auto &arg : argv) {
    if (!text.empty()) text += ' ';
    const bool plain =
        !arg.empty() && arg.find_first_of(" \t\n'\"\\$`*?()[]{}<>|&;!#~") == std::string::npos;
    if (plain) {
      text += arg;
      continue;
    }
    text += '\'';
    for (char c : arg)
      text += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += '\'';
  }
  return text;
}

namespace {
// The environment the application gets: prof's, with `overrides` replacing
// or adding entries. Built before fork: the child may only exec.
std::vector<std::string> environment_with(const std::vector<std::string> &overrides, bool inherit) {
  std::vector<std::string> result;
  for (char **entry = environ; inherit && *entry; ++entry) {
    const std::string text = *entry;
    const std::string key = text.substr(0, text.find('='));
    bool replaced = false;
    for (const auto &o : overrides)
      if (o.compare(0, key.size() + 1, key + "=") == 0) replaced = true;
    if (!replaced) result.push_back(text);
  }
  result.insert(result.end(), overrides.begin(), overrides.end());
  return result;
}
} // namespace

bool AppLauncher::spawn(const std::vector<std::string> &argv, bool show_output,
                        const std::vector<std::string> &environment, bool inherit_environment,
                        std::string path) {
  auto plan = std::make_unique<HeldChildPlan>();
  plan->path = !path.empty() ? std::move(path) : argv.empty() ? "" : resolve(argv[0]);
  if (plan->path.empty() && !argv.empty()) plan->path = argv[0]; // exec says why not
  plan->argv_text = argv;
  plan->env_text = environment_with(environment, inherit_environment);
  plan->point_arrays();
  int gate[2], exec_error[2];
  if (pipe2(gate, O_CLOEXEC) != 0) {
    error_ = std::string("cannot create pipes: ") + std::strerror(errno);
    return false;
  }
  if (pipe2(exec_error, O_CLOEXEC) != 0) {
    error_ = std::string("cannot create pipes: ") + std::strerror(errno);
    close(gate[0]);
    close(gate[1]);
    return false;
  }
  plan->gate_read = gate[0];
  plan->gate_write = gate[1];
  plan->error_read = exec_error[0];
  plan->error_write = exec_error[1];
  if (!show_output) plan->null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  void *stack = mmap(nullptr, kChildStackBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  // Orphaned descendants come back to prof, so it can wait for all of them.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  const int pid = stack == MAP_FAILED ? -1 : start_held_child(*plan, stack, kChildStackBytes);
  const int err = errno;
  close(gate[0]);
  close(exec_error[1]);
  if (plan->null_fd >= 0) close(plan->null_fd);
  if (pid < 0) {
    error_ =
        "cannot start '" + (argv.empty() ? std::string() : argv[0]) + "': " + std::strerror(err);
    if (stack != MAP_FAILED) munmap(stack, kChildStackBytes);
    close(gate[1]);
    close(exec_error[0]);
    return false;
  }
  pid_ = pid;
  gate_fd_ = gate[1];
  exec_error_fd_ = exec_error[0];
  program_ = argv.empty() ? "" : argv[0];
  child_plan_ = std::move(plan);
  child_stack_ = stack;
  return true;
}

void AppLauncher::open_gate() {
  if (gate_fd_ >= 0) close(gate_fd_);
  gate_fd_ = -1;
}

bool AppLauncher::exec_started() {
  if (exec_error_fd_ < 0) return error_.empty();
  int err = 0;
  ssize_t n;
  while ((n = read(exec_error_fd_, &err, sizeof err)) < 0 && errno == EINTR) {
  }
  close(exec_error_fd_);
  exec_error_fd_ = -1;
  if (n == sizeof err) {
    // The child is still on its stack until its exit: that stays mapped.
    child_may_run_on_stack_ = true;
    error_ = "cannot run '" + program_ + "': " + std::strerror(err);
    return false;
  }
  return true;
}

namespace {
int child_pipe_write = -1;

void child_exited(int) {
  const int saved = errno;
  (void)!write(child_pipe_write, "c", 1);
  errno = saved;
}

bool readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}
} // namespace

AppExit AppLauncher::wait_all(WaitOptions options) {
  forward_to = pid_;
  struct sigaction forward {};
  forward.sa_handler = forward_signal;
  sigemptyset(&forward.sa_mask);
  forward.sa_flags = SA_RESTART;
  struct sigaction old_term, old_hup, old_int, old_child, ignore{}, child{};
  sigaction(SIGTERM, &forward, &old_term);
  sigaction(SIGHUP, &forward, &old_hup);
  // Ctrl-C reaches the application through the terminal's process group;
  // prof stays to write what was collected.
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  // A child's exit wakes the poll below through this pipe.
  int child_pipe[2];
  if (pipe2(child_pipe, O_CLOEXEC | O_NONBLOCK) != 0) child_pipe[0] = child_pipe[1] = -1;
  child_pipe_write = child_pipe[1];
  child.sa_handler = child_exited;
  sigemptyset(&child.sa_mask);
  child.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigaction(SIGCHLD, &child, &old_child);

  AppExit result;
  bool primary_ended = false;
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(-1, &status, WNOHANG);
    if (done < 0 && errno == EINTR) continue;
    if (done < 0) break; // ECHILD: the whole tree has ended
    if (done > 0) {
      if (done != pid_) continue;
      if (WIFEXITED(status))
        result = {WEXITSTATUS(status), 0};
      else if (WIFSIGNALED(status))
        result = {128 + WTERMSIG(status), WTERMSIG(status)};
      forward_to = 0;
      primary_ended = true;
      continue;
    }
    if (primary_ended && options.primary_only) break;
    if (options.wake_fd >= 0 && readable(options.wake_fd)) {
      result.running = !primary_ended;
      break;
    }
    pollfd fds[2] = {{child_pipe[0], POLLIN, 0}, {options.wake_fd, POLLIN, 0}};
    // Without the pipe, poll now and then.
    if (poll(fds, options.wake_fd >= 0 ? 2 : 1, child_pipe[0] >= 0 ? -1 : 10) > 0) {
      char bytes[64];
      while (child_pipe[0] >= 0 && read(child_pipe[0], bytes, sizeof bytes) > 0) {
      }
    }
  }
  forward_to = 0;
  sigaction(SIGCHLD, &old_child, nullptr);
  child_pipe_write = -1;
  for (int fd : child_pipe)
    if (fd >= 0) close(fd);
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  sigaction(SIGINT, &old_int, nullptr);
  return result;
}

} // namespace prof::tool
