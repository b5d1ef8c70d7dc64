#include "core/agent/dynamic_listener.hpp"

#include "core/agent/agent_state.hpp"
#include "core/agent/own_command_line.hpp"
#include "core/agent/trigger_watch.hpp"
#include "core/control/control_folder.hpp"
#include "core/control/control_server.hpp"

#include <charconv>
#include <mutex>
#include <unistd.h>

namespace prof::agent {
namespace {

control::ControlServer *g_listener = nullptr;
std::mutex g_attach_mutex;
bool g_attached = false;

std::string answer(const control::Request &request) {
  std::lock_guard lock(g_attach_mutex);
  switch (request.command) {
  case control::Command::Start: {
    if (g_attached) return "error prof is already attached to this process";
    // "REGION [PID]": PID is how prof knows this process (its host pid, in a container).
    const std::string &argument = request.argument;
    const size_t space = argument.find(' ');
    const std::string region = argument.substr(0, space);
    int32_t pid_seen_by_prof = 0;
    if (space != std::string::npos) {
      const char *digits = argument.c_str() + space + 1;
      const auto [end, ec] =
          std::from_chars(digits, argument.c_str() + argument.size(), pid_seen_by_prof);
      if (ec != std::errc() || *end != '\0' || pid_seen_by_prof <= 0)
        return "error start: expected REGION [PID], got '" + argument + "'";
    }
    std::string error;
    if (!attach_region(region.c_str(), &error, request.fd, pid_seen_by_prof))
      return "error " + error;
    g_attached = true;
    return error.empty() ? "ok attached" : "ok attached; " + error;
  }
  case control::Command::Stop:
    if (!g_attached) return "error prof is not attached to this process";
    detach_region();
    g_attached = false;
    return "ok detached";
  case control::Command::Status:
    return "ok name=dynamic-" + std::to_string(getpid()) + "\tpid=" + std::to_string(getpid()) +
           "\tstate=" + (g_attached ? "attached" : "attachable") +
           "\tcommand=" + own_command_line() + trigger_watch_fields();
  default:
    return "error this process takes start REGION, stop and status";
  }
}

} // namespace

std::string dynamic_socket_name(int pid) { return "dynamic-" + std::to_string(pid) + ".sock"; }

bool start_dynamic_listener(std::string *error) {
  try {
    const std::filesystem::path folder = control::control_folder();
    control::ensure_private_folder(folder);
    g_listener = new control::ControlServer(folder / dynamic_socket_name(getpid()), answer);
    return true;
  } catch (const std::exception &e) {
    *error = e.what();
    return false;
  }
}

void stop_dynamic_listener() {
  delete g_listener; // removes the socket
  g_listener = nullptr;
}

void forget_dynamic_listener() { g_listener = nullptr; }

} // namespace prof::agent
