#include "core/plugin_host/plugin_load_probe.hpp"

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace prof::core {

std::optional<std::string> probe_load(const std::function<void()> &load,
                                      std::chrono::milliseconds limit) {
  const pid_t child = fork();
  if (child < 0) return std::nullopt; // no probe: loaded in process, as without one
  if (child == 0) {
    // A crash must end the child by its signal, whatever handler a
    // sanitizer runtime installed for prof.
    for (int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
      std::signal(signal, SIG_DFL);
    // The plugin's own output belongs to the load prof does itself.
    if (const int null = open("/dev/null", O_WRONLY); null >= 0) {
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
    }
    load();
    _exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) return std::nullopt;
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(child, SIGKILL);
      waitpid(child, nullptr, 0);
      return "did not finish loading within " +
             std::to_string(std::chrono::duration_cast<std::chrono::seconds>(limit).count()) + " s";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFSIGNALED(status)) {
    const char *abbrev = sigabbrev_np(WTERMSIG(status));
    return std::string("crashed while loading (") +
           (abbrev ? "SIG" + std::string(abbrev) : "signal " + std::to_string(WTERMSIG(status))) +
           ")";
  }
  return std::nullopt;
}

} // namespace prof::core
