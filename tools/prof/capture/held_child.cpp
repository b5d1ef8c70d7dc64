#include "tools/prof/capture/held_child.hpp"

#include <cerrno>
#include <cstdint>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace prof::tool {

void HeldChildPlan::point_arrays() {
  argv.clear();
  envp.clear();
  script_argv.clear();
  for (std::string &a : argv_text)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string &e : env_text)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  static char shell[] = "/bin/sh";
  script_argv.push_back(shell);
  script_argv.push_back(path.data());
  for (size_t i = 1; i < argv_text.size(); ++i)
    script_argv.push_back(argv_text[i].data());
  script_argv.push_back(nullptr);
  path_c = path.c_str();
  argv_p = argv.data();
  envp_p = envp.data();
  script_argv_p = script_argv.data();
}

namespace {

// The kernel's struct sigaction (x86-64 and arm64 alike), for raw calls.
struct KernelSigaction {
  uintptr_t handler;
  unsigned long flags;
  uintptr_t restorer;
  uint64_t mask;
};

// Runs in the child, in prof's memory and on prof's thread-local storage:
// only raw system calls (no allocation, no lock, no sanitizer interceptor,
// which would take the child for prof's thread), and nothing written but
// its own stack. Signals stay blocked (prof blocked them around the clone)
// until just before exec, after the handlers prof installed are reset: one
// of them running here would run in prof's memory.
__attribute__((no_sanitize("address", "thread", "undefined"))) int held_child(void *arg) {
  const HeldChildPlan &plan = *static_cast<const HeldChildPlan *>(arg);
  syscall(SYS_close, plan.gate_write);
  syscall(SYS_close, plan.error_read);
  char byte;
  while (syscall(SYS_read, plan.gate_read, &byte, 1) > 0) {
  } // EOF: released, or prof died (then the application runs anyway)
  if (plan.null_fd >= 0) {
    syscall(SYS_dup3, plan.null_fd, STDOUT_FILENO, 0);
    syscall(SYS_dup3, plan.null_fd, STDERR_FILENO, 0);
  }
  for (int signal = 1; signal < NSIG; ++signal) {
    KernelSigaction current{};
    if (signal == SIGKILL || signal == SIGSTOP ||
        syscall(SYS_rt_sigaction, signal, nullptr, &current, sizeof current.mask) != 0)
      continue;
    if (current.handler == reinterpret_cast<uintptr_t>(SIG_DFL) ||
        current.handler == reinterpret_cast<uintptr_t>(SIG_IGN))
      continue;
    const KernelSigaction reset{};
    syscall(SYS_rt_sigaction, signal, &reset, nullptr, sizeof reset.mask);
  }
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &plan.mask, nullptr, sizeof(uint64_t));
  syscall(SYS_execve, plan.path_c, plan.argv_p, plan.envp_p);
  // errno is prof's main thread's, which is blocked reading the error pipe.
  int err = errno;
  if (err == ENOEXEC) {
    syscall(SYS_execve, plan.script_argv_p[0], plan.script_argv_p, plan.envp_p);
    err = errno;
  }
  syscall(SYS_write, plan.error_write, &err, sizeof err);
  syscall(SYS_exit_group, 127);
  return 127;
}

} // namespace

int start_held_child(HeldChildPlan &plan, void *stack, size_t stack_bytes) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  plan.mask = old;
  const int pid =
      clone(held_child, static_cast<char *>(stack) + stack_bytes, CLONE_VM | SIGCHLD, &plan);
  const int saved = errno;
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = saved;
  return pid;
}

} // namespace prof::tool
