// The application's process before exec: made with clone(CLONE_VM), so it
// shares prof's memory instead of copying it (fork copied prof's page tables
// and made every page prof then wrote a copy-on-write fault: about 1.5 ms of
// each capture's start-up), and held at a gate until prof's sources run.
// What it reads is made before the clone and kept, unchanged, until it has
// exec'd or died.
#pragma once

#include <csignal>
#include <string>
#include <vector>

namespace prof::tool {

/// Everything the held child needs, owned by the launcher.
struct HeldChildPlan {
  std::string path;                   ///< what to exec (argv[0] when not found)
  std::vector<std::string> argv_text; ///< the command line
  std::vector<std::string> env_text;  ///< its environment
  std::vector<char *> argv, envp;     ///< pointers into the above, null-ended
  std::vector<char *> script_argv;    ///< "/bin/sh" path args...: ENOEXEC, as execvp
  int gate_read = -1;                 ///< EOF: go on (released, or prof died)
  int gate_write = -1;                ///< prof's end, closed in the child
  int error_read = -1;                ///< prof's end, closed in the child
  int error_write = -1;               ///< carries errno when exec fails
  int null_fd = -1;                   ///< /dev/null for stdout and stderr, or -1
  sigset_t mask{};                    ///< prof's signal mask, the application's at exec
  // Raw pointers for the child, which calls no member function.
  const char *path_c = nullptr;
  char *const *argv_p = nullptr, *const *envp_p = nullptr, *const *script_argv_p = nullptr;

  /// Fills the pointers from the texts (after the texts are final).
  void point_arrays();
};

/// Starts the held child on a stack of its own; its pid, or -1 with errno.
/// `stack` must stay mapped until the child has exec'd or died.
int start_held_child(HeldChildPlan &plan, void *stack, size_t stack_bytes);

} // namespace prof::tool
