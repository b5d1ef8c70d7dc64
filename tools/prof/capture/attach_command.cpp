#include "tools/prof/capture/attach_command.hpp"

#include "core/control/control_client.hpp"
#include "core/control/control_folder.hpp"
#include "core/runtime/session_clock.hpp"
#include "tools/prof/capture/capture_front_end.hpp"
#include "tools/prof/capture/capture_plan_options.hpp"
#include "tools/prof/capture/process_facts.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/sessions/background_session.hpp"
#include "tools/prof/sessions/detach_signal.hpp"
#include "tools/prof/sessions/session_control.hpp"

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <poll.h>
#include <regex>
#include <sys/syscall.h>
#include <thread>
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

// Where process `pid`'s waiting agent listens: in the session folder it
// sees, named by the pid it has in its own pid namespace. One in another
// mount namespace (a container) is reached through /proc/PID/root.
fs::path dynamic_socket(int pid) {
  const std::string name = "dynamic-" + std::to_string(innermost_pid(pid)) + ".sock";
  if (shares_namespace(pid, "mnt")) return control::control_folder() / name;
  const fs::path root = "/proc/" + std::to_string(pid) + "/root";
  std::string runtime;
  if (const std::optional<ProcessFacts> facts = read_process_facts(pid))
    if (const auto it = facts->environment.find("XDG_RUNTIME_DIR"); it != facts->environment.end())
      runtime = it->second;
  return root / control::control_folder_of(runtime, root).relative_path() / name;
}

// Sends a request to a process's agent; "" when it answered ok, else why not.
// `start` passes the region's descriptor beside its name (`region_fd`).
std::string ask_agent(int pid, control::Command command, const std::string &argument,
                      std::string *note = nullptr, int region_fd = -1) {
  try {
    const std::string answer =
        control::send_request(dynamic_socket(pid), {command, argument, region_fd});
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

// `prof attach --all [--match REGEX]`: the user's processes whose agents
// wait for prof, less those a prof is attached to already.
std::vector<int> waiting_pids(const cli::CommandLine &command, core::Console &console) {
  if (command.has_app())
    throw cli::UsageError("prof attach --all finds the processes itself: it takes no process ids");
  std::optional<std::regex> match;
  if (const std::string *pattern = command.value("match")) try {
      match.emplace(*pattern, std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
      throw cli::UsageError("--match '" + *pattern +
                            "': expected a regular expression (ECMAScript): " + e.what());
    }
  // --trigger-dir: those watching that folder (they report it canonical).
  std::string trigger_dir;
  if (const std::string *dir = command.value("trigger-dir")) {
    std::error_code ec;
    trigger_dir = fs::canonical(*dir, ec).string();
    if (ec) throw cli::UsageError("--trigger-dir '" + *dir + "': expected an existing folder");
  }
  std::vector<int> pids;
  for (const WaitingProcess &process : waiting_processes()) {
    if (match && !std::regex_search(process.command, *match)) continue;
    if (!trigger_dir.empty() && process.trigger_dir != trigger_dir) continue;
    if (process.attached)
      console.warning("process " + std::to_string(process.pid) +
                      " is being profiled by another prof already; left out");
    else
      pids.push_back(process.pid);
  }
  if (pids.empty())
    throw cli::UsageError(
        std::string("prof attach --all: no process of this user is waiting for prof") +
        (match ? " with a command line matching '" + *command.value("match") + "'" : "") +
        (trigger_dir.empty() ? "" : " watching " + trigger_dir) +
        " (start them with PROF_MODE=dynamic LD_PRELOAD=" + AgentSetup::agent_path() + ")");
  return pids;
}

// The processes `prof attach PIDS` or `prof --pid PIDS` names.
std::vector<int> target_pids(const cli::CommandLine &command, core::Console &console) {
  if (command.has("all")) return waiting_pids(command, console);
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
  // One that replaces the application's functions must have been preloaded
  // when it started, beside the waiting agent.
  for (const SelectedPlugin &source : process_sources)
    if (source.plugin->flags & PROF_PLUGIN_INTERPOSES)
      for (int pid : pids)
        if (!maps_file(pid, source.plugin->path.string()))
          throw cli::UsageError(
              source.plugin->name + " replaces functions of the application, and process " +
              std::to_string(pid) +
              " did not start with it: start it with PROF_MODE=dynamic LD_PRELOAD=" +
              AgentSetup::agent_path() + ":" + source.plugin->path.string());
  // The agent carries the application's capture requests and step marks too.
  std::string needs_agent;
  if (!process_sources.empty())
    needs_agent = process_sources.front().plugin->name + " runs inside the application";
  else if (plan.range == CaptureRange::Steps)
    needs_agent = "--capture-steps follows the steps the application marks through its agent";
  else if (plan.range != CaptureRange::None)
    needs_agent = "--capture-range follows the application's requests through its agent";
  if (!needs_agent.empty())
    for (int pid : pids)
      if (const std::string problem = ask_agent(pid, control::Command::Status, "");
          !problem.empty())
        throw cli::UsageError(
            needs_agent + ", and process " + std::to_string(pid) + " has no prof agent waiting (" +
            problem + "): start it with PROF_MODE=dynamic LD_PRELOAD=" + AgentSetup::agent_path());
}

// Asks each process's agent to join the capture, all at once; the pids that
// did. Several: says how far apart their agents started.
std::vector<int> join_agents(const std::vector<int> &pids, const AgentSetup *agent,
                             core::Console &console) {
  if (!agent) return {};
  struct Answer {
    std::string problem, note;
    uint64_t asked_ns = 0, answered_ns = 0;
  };
  std::vector<Answer> answers(pids.size());
  {
    std::vector<std::jthread> askers;
    for (size_t i = 0; i < pids.size(); ++i)
      askers.emplace_back([&, i] {
        answers[i].asked_ns = core::session_now_ns();
        answers[i].problem = ask_agent(pids[i], control::Command::Start,
                                       agent->region_name() + " " + std::to_string(pids[i]),
                                       &answers[i].note, agent->region_fd());
        answers[i].answered_ns = core::session_now_ns();
      });
  }
  std::vector<int> joined;
  uint64_t first_asked = UINT64_MAX, first_answer = UINT64_MAX, last_answer = 0;
  for (size_t i = 0; i < pids.size(); ++i) {
    const Answer &a = answers[i];
    if (!a.problem.empty()) {
      console.warning("process " + std::to_string(pids[i]) +
                      " did not take the capture: " + a.problem);
      continue;
    }
    if (a.note != "attached") console.warning("process " + std::to_string(pids[i]) + ": " + a.note);
    joined.push_back(pids[i]);
    first_asked = std::min(first_asked, a.asked_ns);
    first_answer = std::min(first_answer, a.answered_ns);
    last_answer = std::max(last_answer, a.answered_ns);
  }
  if (joined.size() > 1) {
    char figures[160];
    std::snprintf(figures, sizeof figures,
                  "%zu agents joined within %.1f ms of each other (%.1f ms after prof asked)",
                  joined.size(), static_cast<double>(last_answer - first_answer) / 1e6,
                  static_cast<double>(last_answer - first_asked) / 1e6);
    console.line(figures);
  }
  return joined;
}

// What each process's report takes from it: pid, rank, environment.
std::vector<ProcessFacts> facts_of(const std::vector<int> &pids) {
  std::vector<ProcessFacts> facts;
  for (int pid : pids) {
    std::optional<ProcessFacts> read = read_process_facts(pid);
    facts.push_back(read ? std::move(*read) : ProcessFacts{pid, process_command(pid), {}, "", ""});
  }
  return facts;
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
  const std::vector<int> pids = target_pids(command, console);
  plan.step_processes = static_cast<uint32_t>(pids.size()); // each tells its step on joining
  // prof start --all: a capture nothing bounds goes on in the background
  // until prof stop; one that ends by itself (steps, --duration) stays in
  // the foreground, for a job launcher to wait on.
  const bool start_all = command.has("start");
  if (start_all && plan.interactive)
    throw cli::UsageError("--dynamic on: prof start --all has no (prof) prompt; use prof attach "
                          "--all --dynamic on");
  const bool background =
      start_all && plan.duration.count() == 0 && plan.range != core::CaptureRange::Steps;
  const std::string session =
      command.value_or("session-new", "attach-" + std::to_string(pids.front()));
  BackgroundSession in_background;
  if (background) {
    plan.stop_ends_capture = true;
    if (const std::optional<int> exit_code = in_background.fork_capture()) return *exit_code;
  }
  const fs::path log = background ? control::control_folder() / (session + ".log") : fs::path();
  CaptureFrontEnd capture(context, plan);
  check_attachable(capture.process_sources(), pids, plan);
  const std::string display = process_command(pids.front());
  // The processes were not started by prof: the end of --duration detaches.
  core::CaptureController &controller =
      capture.start({session, pids, {display}, display, facts_of(pids), log.string()},
                    [fd = capture.detach_fd()](int) { signal_detach(fd); });
  capture.released();
  // A process in a container writes pids prof cannot look up, and cannot look up prof's.
  if (capture.agent() &&
      std::any_of(pids.begin(), pids.end(), [](int pid) { return !shares_namespace(pid, "pid"); }))
    capture.agent()->admit_other_pid_namespaces();
  const std::vector<int> joined = join_agents(pids, capture.agent(), console);
  // Those that refused never tell their step: S is picked without them.
  if (plan.range == core::CaptureRange::Steps) controller.steps_joined(joined.size());
  std::string listed;
  for (int pid : pids)
    listed += (listed.empty() ? "" : ",") + std::to_string(pid);
  console.line("PROF is attached to process " + listed + ", command: " + display);
  if (background) {
    console.line("session " + session + " collects in the background; 'prof stop --session " +
                 session + "' ends it and writes the reports (its console: " + log.string() + ")");
    in_background.ready(log);
  }
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
