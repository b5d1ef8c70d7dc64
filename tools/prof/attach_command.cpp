#include "tools/prof/attach_command.hpp"

#include "core/control/control_client.hpp"
#include "core/control/control_folder.hpp"
#include "tools/prof/capture_front_end.hpp"
#include "tools/prof/capture_plan.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <charconv>
#include <csignal>
#include <fstream>
#include <iterator>
#include <optional>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace prof::tool {
namespace {

namespace fs = std::filesystem;

int g_interrupt_fd = -1;

void interrupted(int) { signal_detach(g_interrupt_fd); }

std::vector<int> parse_pids(const std::string &option, const std::string &text) {
  std::vector<int> pids;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    int pid = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), pid);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || pid <= 0)
      throw cli::UsageError(option + " '" + text + "': expected process ids, e.g. 1234,5678");
    if (kill(pid, 0) != 0 && errno == ESRCH)
      throw cli::UsageError(option + ": no process " + std::to_string(pid) + " is running");
    pids.push_back(pid);
    at = comma + 1;
  }
  return pids;
}

std::string process_command(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && text.back() == '\0')
    text.pop_back();
  for (char &c : text)
    if (c == '\0') c = ' ';
  return text;
}

fs::path dynamic_socket(int pid) {
  return control::control_folder() / ("dynamic-" + std::to_string(pid) + ".sock");
}

// Sends a request to a process's agent; "" when it answered ok, else why not.
std::string ask_agent(int pid, control::Command command, const std::string &argument,
                      std::string *note = nullptr) {
  try {
    const std::string answer = control::send_request(dynamic_socket(pid), {command, argument});
    if (answer.rfind("ok", 0) == 0) {
      if (note) *note = answer.size() > 3 ? answer.substr(3) : "";
      return "";
    }
    return answer.rfind("error ", 0) == 0 ? answer.substr(6) : answer;
  } catch (const std::exception &e) {
    return e.what();
  }
}

// Waits until `wake_fd` is readable or every process in `pids` has ended.
void wait_for_end(const std::vector<int> &pids, int wake_fd) {
  std::vector<pollfd> fds{{wake_fd, POLLIN, 0}};
  for (int pid : pids)
    if (const int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); fd >= 0)
      fds.push_back({fd, POLLIN, 0});
  const bool watched = fds.size() == pids.size() + 1;
  for (;;) {
    // Without pidfds (an old kernel), look now and then.
    poll(fds.data(), fds.size(), watched ? -1 : 200);
    if (fds[0].revents & POLLIN) break;
    size_t ended = 0;
    for (int pid : pids)
      ended += kill(pid, 0) != 0 && errno == ESRCH;
    if (ended == pids.size()) break;
    for (size_t i = 1; i < fds.size(); ++i)
      if (fds[i].revents & POLLIN) fds[i].fd = -1; // that one ended; keep waiting for the others
  }
  for (size_t i = 1; i < fds.size(); ++i)
    if (fds[i].fd >= 0) close(fds[i].fd);
}

// What shapes a launch has nothing to act on in a running process.
void refuse_launch_options(const cli::CommandLine &command) {
  if (command.has("kill"))
    throw cli::UsageError("--kill: prof attach never stops the processes it attaches to");
  for (const char *option :
       {"env-var", "inherit-environment", "show-output", "wait", "print-app-log"})
    if (command.has(option))
      throw cli::UsageError(std::string("--") + option +
                            " sets up a launched application: it cannot apply to a process "
                            "that is already running");
}

// The processes `prof attach PIDS` or `prof --pid PIDS` names.
std::vector<int> target_pids(const cli::CommandLine &command) {
  std::string pid_text;
  if (command.subcommand == "attach") {
    if (command.app.size() != 1 || command.has("pid"))
      throw cli::UsageError("prof attach: expected one list of process ids, e.g. prof attach "
                            "--trace osrt 1234,5678");
    pid_text = command.app.front();
  } else {
    if (command.has_app())
      throw cli::UsageError("--pid attaches to running processes: it takes no application");
    pid_text = *command.value("pid");
  }
  return parse_pids(command.subcommand == "attach" ? "prof attach" : "--pid", pid_text);
}

// Sources that run inside the application need its agent, waiting.
void check_attachable(const std::vector<SelectedPlugin> &process_sources,
                      const std::vector<int> &pids, const CapturePlan &plan) {
  for (const SelectedPlugin &source : process_sources)
    if (source.plugin->flags & PROF_PLUGIN_INTERPOSES)
      throw cli::UsageError(source.plugin->name +
                            " replaces functions of the application and can only be used when "
                            "prof launches it; it cannot attach");
  if (!process_sources.empty())
    for (int pid : pids)
      if (const std::string problem = ask_agent(pid, control::Command::Status, "");
          !problem.empty())
        throw cli::UsageError(
            process_sources.front().plugin->name + " runs inside the application, and process " +
            std::to_string(pid) + " has no prof agent waiting (" + problem +
            "): start it with PROF_MODE=dynamic LD_PRELOAD=" + AgentSetup::agent_path());
  if (plan.range != CaptureRange::None && process_sources.empty())
    throw cli::UsageError("--capture-range: the application's capture requests reach prof through "
                          "its agent; attach with a source that runs inside it (e.g. "
                          "--enable-activities) to a process started with PROF_MODE=dynamic");
}

// Asks each process's agent to join the capture; the pids that did.
std::vector<int> join_agents(const std::vector<int> &pids, const AgentSetup *agent,
                             core::Console &console) {
  std::vector<int> joined;
  for (int pid : pids) {
    if (!agent) break;
    std::string note;
    if (const std::string problem =
            ask_agent(pid, control::Command::Start, agent->region_name(), &note);
        !problem.empty()) {
      console.warning("process " + std::to_string(pid) + " did not take the capture: " + problem);
      continue;
    }
    if (note != "attached") console.warning("process " + std::to_string(pid) + ": " + note);
    joined.push_back(pid);
  }
  return joined;
}

// While it lives, SIGINT and SIGTERM end the wait for the processes (prof
// detaches) instead of ending prof.
class InterruptDetaches {
public:
  explicit InterruptDetaches(int detach_fd) {
    g_interrupt_fd = detach_fd;
    struct sigaction on_signal {};
    on_signal.sa_handler = interrupted;
    sigemptyset(&on_signal.sa_mask);
    sigaction(SIGINT, &on_signal, &old_int_);
    sigaction(SIGTERM, &on_signal, &old_term_);
  }
  ~InterruptDetaches() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  InterruptDetaches(const InterruptDetaches &) = delete;
  InterruptDetaches &operator=(const InterruptDetaches &) = delete;

private:
  struct sigaction old_int_ {
  }, old_term_{};
};

} // namespace

int run_attach(const RunContext &context) {
  const cli::CommandLine &command = context.command;
  core::Console &console = context.console;
  refuse_launch_options(command);
  core::CapturePlan plan = capture_plan(command);
  plan.attached = true;
  plan.kill_signal = 0;
  const std::vector<int> pids = target_pids(command);
  CaptureFrontEnd capture(context, plan);
  check_attachable(capture.process_sources(), pids, plan);
  const std::string display = process_command(pids.front());
  // The processes were not started by prof: the end of --duration detaches.
  capture.start({command.value_or("session-new", "attach-" + std::to_string(pids.front())),
                 pids,
                 {display},
                 display},
                [fd = capture.detach_fd()](int) { signal_detach(fd); });
  const std::vector<int> joined = join_agents(pids, capture.agent(), console);
  std::string listed;
  for (int pid : pids)
    listed += (listed.empty() ? "" : ",") + std::to_string(pid);
  console.line("PROF is attached to process " + listed + ", command: " + display);
  capture.wait([&] {
    const InterruptDetaches interrupt(capture.detach_fd());
    wait_for_end(pids, capture.detach_fd());
  });
  // Agents stop their plugins and flush before prof drains the last events.
  for (int pid : joined)
    ask_agent(pid, control::Command::Stop, "");
  // An attached process runs on: its exit status is not prof's to report.
  const int status = capture.finish(0, 0) ? kExitOk : kExitFailure;
  console.line("prof detached from process " + listed);
  return status;
}

} // namespace prof::tool
