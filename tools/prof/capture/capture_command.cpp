#include "tools/prof/capture/capture_command.hpp"

#include "tools/prof/capture/app_launcher.hpp"
#include "tools/prof/capture/application_environment.hpp"
#include "tools/prof/capture/capture_front_end.hpp"
#include "tools/prof/capture/capture_plan_options.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/sessions/detach_signal.hpp"

#include <csignal>
#include <cstring>
#include <stdexcept>
#include <sys/wait.h>

namespace prof::tool {

namespace {

// Ends the application, still held at its gate, when prof returns before
// releasing it: it never ran user code.
struct HeldApplication {
  AppLauncher &app;
  bool released = false;
  ~HeldApplication() {
    if (released || app.pid() <= 0) return;
    kill(app.pid(), SIGKILL);
    waitpid(app.pid(), nullptr, 0);
  }
};

std::string signal_text(int signal) {
  const char *name = sigabbrev_np(signal);
  const char *what = strsignal(signal);
  return std::to_string(signal) + (name ? std::string(" (SIG") + name + ": " + what + ")" : "");
}

// The agent's variables join the user's; a user's LD_PRELOAD (--env-var)
// comes after the agent's libraries instead of replacing them.
void add_agent_environment(std::vector<std::string> &environment,
                           const std::vector<std::string> &agent) {
  constexpr std::string_view kPreload = "LD_PRELOAD=";
  std::string users;
  std::erase_if(environment, [&](const std::string &entry) {
    if (!entry.starts_with(kPreload)) return false;
    users = entry.substr(kPreload.size());
    return true;
  });
  for (const std::string &entry : agent)
    environment.push_back(entry.starts_with(kPreload) && !users.empty() ? entry + ":" + users
                                                                        : entry);
}

} // namespace

int run_capture(const RunContext &context) {
  const cli::CommandLine &command = context.command;
  core::Console &console = context.console;
  // Everything that can be wrong with the input is found before anything starts.
  CaptureFrontEnd capture(context, capture_plan(command));
  const ApplicationEnvironment app_environment = application_environment(command);
  const std::string program = AppLauncher::resolve(command.app[0]);
  if (program.empty())
    throw cli::UsageError("cannot find application '" + command.app[0] +
                          "': not an executable file and not found in PATH");
  std::vector<std::string> environment = app_environment.variables;
  if (const AgentSetup *agent = capture.agent())
    add_agent_environment(environment, agent->environment());
  AppLauncher app;
  if (!app.spawn(command.app, app_environment.show_output, environment, app_environment.inherit,
                 program))
    throw std::runtime_error(app.error());
  HeldApplication held{app}; // every exit until release() ends it
  const int pid = app.pid();
  console.set_pid(pid);
  const std::string display = AppLauncher::display(command.app);
  // The end of --duration signals the application prof started (or lets it run on).
  capture.start({command.value_or("session-new", std::to_string(pid)), {pid}, command.app, display},
                [pid, fd = capture.detach_fd()](int signal) {
                  if (signal != 0)
                    kill(pid, signal);
                  else
                    signal_detach(fd);
                });
  console.line("PROF is profiling process " + std::to_string(pid) + ", command: " + display);
  held.released = true;
  app.open_gate();
  capture.released(); // while the application execs
  const bool launched = app.exec_started();
  if (!launched) console.warning(app.error());
  // Ctrl-C reaches the application (prof's launcher forwards and ignores it),
  // so unlike an attach, prof needs no handler: the wait ends with it.
  AppExit exit;
  capture.wait(
      [&] {
        exit = app.wait_all({command.value_or("wait", "all") == "primary", capture.detach_fd()});
      },
      launched);
  if (exit.running) console.line("prof detached; application " + std::to_string(pid) + " runs on");
  int status = launched && !exit.running ? exit.code : launched ? kExitOk : kExitFailure;
  if (!capture.finish(exit.running ? 0 : exit.code, exit.running ? 0 : exit.signal) && status == 0)
    status = kExitFailure;
  if (exit.signal != 0)
    console.line("application was killed by signal " + signal_text(exit.signal));
  else if (launched && exit.code != 0)
    console.line("application exited with code " + std::to_string(exit.code));
  return status;
}

} // namespace prof::tool
