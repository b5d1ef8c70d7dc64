#include "tools/prof/sessions/session_control.hpp"

#include "core/control/control_client.hpp"
#include "core/control/control_folder.hpp"
#include "core/control/local_time.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/run_context.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <poll.h>
#include <random>
#include <sys/random.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace prof::tool {
namespace {

namespace fs = std::filesystem;
constexpr const char *kFields[] = {"name",    "id",      "pid",     "state",
                                   "windows", "started", "command", "output"};

// "ok key=value\tkey=value..." (values hold no tab or newline).
std::string encode_fields(const std::vector<std::pair<std::string, std::string>> &fields) {
  std::string text = "ok";
  char separator = ' ';
  for (const auto &[key, value] : fields) {
    std::string clean = value;
    std::replace_if(
        clean.begin(), clean.end(), [](char c) { return c == '\t' || c == '\n'; }, ' ');
    text += separator + key + "=" + clean;
    separator = '\t';
  }
  return text;
}

std::map<std::string, std::string> decode_fields(const std::string &text) {
  std::map<std::string, std::string> fields;
  if (text.rfind("ok ", 0) != 0) return fields;
  size_t at = 3;
  while (at <= text.size()) {
    const size_t tab = std::min(text.find('\t', at), text.size());
    const std::string item = text.substr(at, tab - at);
    const size_t eq = item.find('=');
    if (eq != std::string::npos) fields[item.substr(0, eq)] = item.substr(eq + 1);
    at = tab + 1;
  }
  return fields;
}

} // namespace

SessionControl::SessionControl(SessionFacts facts) : facts_(std::move(facts)) {
  const fs::path folder = control::control_folder();
  control::ensure_private_folder(folder);
  if (facts_.id.empty()) {
    unsigned random = 0; // getrandom(2): std::random_device probes the CPU (cpuid) first
    if (getrandom(&random, sizeof random, 0) != sizeof random) random = std::random_device{}();
    char id[24];
    std::snprintf(id, sizeof id, "%d-%04x", facts_.pid, random & 0xffff);
    facts_.id = id;
  }
  if (facts_.started.empty()) facts_.started = control::local_time_now();
  server_ = std::make_unique<control::ControlServer>(
      folder / (facts_.name + ".sock"),
      [this](const control::Request &request) { return answer(request); });
}

SessionControl::~SessionControl() { server_.reset(); }

std::string SessionControl::answer(const control::Request &request) const {
  core::CaptureController *controller = controller_.load();
  if (request.command == control::Command::Status) {
    const std::string output = controller ? controller->output() : "";
    return encode_fields(
        {{"name", facts_.name},
         {"id", facts_.id},
         {"pid", std::to_string(facts_.pid)},
         {"state", controller ? controller->state() : "waiting"},
         {"windows", std::to_string(controller ? controller->windows_started() : 0)},
         {"started", facts_.started},
         {"command", facts_.command},
         {"output", output.empty() ? facts_.output : output},
         {"prof_pid", std::to_string(getpid())},
         {"log", facts_.log}});
  }
  if (!controller) return "error the session is not ready for commands yet; try again";
  return controller->command(request.command, request.argument);
}

namespace {

struct LiveSession {
  fs::path socket;
  std::map<std::string, std::string> fields;
};

// Every session that answers in the user's folder; sockets nobody answers
// on belong to sessions that are gone and are removed.
std::vector<LiveSession> live_sessions() {
  const fs::path folder = control::control_folder();
  std::vector<LiveSession> sessions;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path path = it->path();
    if (path.extension() != ".sock") continue;
    try {
      auto fields = decode_fields(
          control::send_request(path, {control::Command::Status, ""}, std::chrono::seconds(1)));
      if (!fields.empty()) sessions.push_back({path, std::move(fields)});
    } catch (const std::exception &) {
      std::error_code remove_ec;
      if (!control::socket_alive(path)) fs::remove(path, remove_ec);
    }
  }
  std::sort(sessions.begin(), sessions.end(),
            [](auto &a, auto &b) { return a.fields["started"] < b.fields["started"]; });
  return sessions;
}

// Waits for a background session's prof to end, then prints what it wrote
// to its console from `offset` on; exit 1 when it did not end in 10 minutes.
int wait_for_background_end(int prof_pid, const std::string &log, uintmax_t offset) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(10);
  const int pidfd = prof_pid > 0 ? static_cast<int>(syscall(SYS_pidfd_open, prof_pid, 0)) : -1;
  bool ended = prof_pid <= 0 || (kill(prof_pid, 0) != 0 && errno == ESRCH);
  while (!ended && std::chrono::steady_clock::now() < give_up) {
    pollfd fd{pidfd, POLLIN, 0};
    if (pidfd >= 0)
      poll(&fd, 1, 1000);
    else
      std::this_thread::sleep_for(std::chrono::milliseconds(50)); // an old kernel
    ended = kill(prof_pid, 0) != 0 && errno == ESRCH;
  }
  if (pidfd >= 0) close(pidfd);
  std::ifstream in(log, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  std::fputs(std::string(std::istreambuf_iterator<char>(in), {}).c_str(), stdout);
  if (ended) return kExitOk;
  print_error("the session is still writing its reports after 10 minutes; its console: " + log);
  return kExitFailure;
}

} // namespace

int run_session_command(control::Command command, const std::string &session,
                        const std::string &argument) {
  const std::vector<LiveSession> sessions = live_sessions();
  const LiveSession *chosen = nullptr;
  for (const LiveSession &s : sessions) {
    // Processes waiting for `prof --pid` are listed, not commanded.
    if (s.socket.filename().string().starts_with("dynamic-")) continue;
    const auto name = s.fields.find("name"), id = s.fields.find("id");
    if (session.empty() || (name != s.fields.end() && name->second == session) ||
        (id != s.fields.end() && id->second == session))
      chosen = chosen ? nullptr : &s;
    if (!session.empty() && chosen) break;
  }
  const std::string word(control::command_name(command));
  if (std::none_of(sessions.begin(), sessions.end(), [](const LiveSession &s) {
        return !s.socket.filename().string().starts_with("dynamic-");
      })) {
    print_error(word +
                ": there is no session to act on (start one with prof --session-new NAME ...)");
    return kExitUsage;
  }
  if (!chosen) {
    std::string names;
    for (const LiveSession &s : sessions)
      if (!s.socket.filename().string().starts_with("dynamic-"))
        names += (names.empty() ? "" : ", ") + s.fields.at("name");
    print_error(word +
                (session.empty()
                     ? ": there are several sessions (" + names + "): name one with --session NAME"
                     : ": no session is named '" + session + "' (sessions: " + names + ")"));
    return kExitUsage;
  }
  // A background session (prof start --all) ends with stop and shutdown:
  // its console from then on (the reports it wrote) is printed here.
  const auto log = chosen->fields.find("log");
  const bool ends_background =
      (command == control::Command::Stop || command == control::Command::Shutdown) &&
      log != chosen->fields.end() && !log->second.empty();
  std::error_code size_ec;
  const uintmax_t log_from = ends_background ? fs::file_size(log->second, size_ec) : 0;
  std::string answer;
  try {
    answer = control::send_request(chosen->socket, {command, argument}, std::chrono::seconds(10));
  } catch (const std::exception &e) {
    print_error(word + ": " + e.what());
    return kExitFailure;
  }
  if (answer.rfind("ok", 0) == 0) {
    if (ends_background) // the answer is in its console too
      return wait_for_background_end(std::atoi(chosen->fields.at("prof_pid").c_str()), log->second,
                                     size_ec ? 0 : log_from);
    std::printf("%s\n", answer.size() > 3 ? answer.substr(3).c_str() : "done");
    return kExitOk;
  }
  print_error(word + ": " + (answer.rfind("error ", 0) == 0 ? answer.substr(6) : answer));
  return kExitFailure;
}

int run_session_list(core::Console &) {
  std::vector<std::map<std::string, std::string>> sessions;
  for (LiveSession &s : live_sessions())
    sessions.push_back(std::move(s.fields));
  if (sessions.empty()) {
    std::printf("no sessions\n");
    return kExitOk;
  }
  std::vector<size_t> widths;
  for (const char *field : kFields) {
    size_t width = std::string(field).size();
    for (auto &s : sessions)
      width = std::max(width, s[field].size());
    widths.push_back(width);
  }
  const auto print_row = [&](auto cell) {
    std::string line;
    for (size_t i = 0; i < std::size(kFields); ++i) {
      const std::string text = cell(kFields[i]);
      line += text;
      if (i + 1 < std::size(kFields)) line += std::string(widths[i] - text.size() + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  };
  print_row([](const char *field) {
    std::string upper(field);
    for (char &c : upper)
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return upper;
  });
  for (auto &s : sessions)
    print_row([&](const char *field) { return s[field]; });
  return kExitOk;
}

std::vector<WaitingProcess> waiting_processes() {
  std::vector<WaitingProcess> waiting;
  for (LiveSession &s : live_sessions()) {
    if (!s.socket.filename().string().starts_with("dynamic-")) continue;
    const int pid = std::atoi(s.fields["pid"].c_str());
    if (pid > 0)
      waiting.push_back(
          {pid, s.fields["command"], s.fields["state"] == "attached", s.fields["trigger_dir"]});
  }
  std::sort(waiting.begin(), waiting.end(),
            [](const WaitingProcess &a, const WaitingProcess &b) { return a.pid < b.pid; });
  return waiting;
}

namespace {
std::string state_text(const std::string &state) {
  if (state == "running") return "collecting";
  if (state == "waiting")
    return "not collecting (waiting for prof start, --delay or a capture range)";
  return state;
}
} // namespace

int run_status(const std::string &session) {
  std::vector<LiveSession> sessions = live_sessions();
  if (!session.empty()) {
    std::string names;
    for (LiveSession &s : sessions)
      names += (names.empty() ? "" : ", ") + s.fields["name"];
    std::erase_if(sessions, [&](LiveSession &s) {
      return s.fields["name"] != session && s.fields["id"] != session;
    });
    if (sessions.empty()) {
      print_error("status: no session is named '" + session +
                  "' (sessions: " + (names.empty() ? "none" : names) + ")");
      return kExitUsage;
    }
  }
  if (sessions.empty()) {
    std::printf("no sessions are running\n");
    return kExitOk;
  }
  for (LiveSession &s : sessions) {
    // Processes started with PROF_MODE=dynamic wait for prof --pid.
    const bool waiting = s.socket.filename().string().starts_with("dynamic-");
    std::printf("Session %s (id %s)\n", s.fields["name"].c_str(), s.fields["id"].c_str());
    std::printf("  state:    %s\n", waiting ? "waiting for prof --pid to attach"
                                            : state_text(s.fields["state"]).c_str());
    std::printf("  pid:      %s\n", s.fields["pid"].c_str());
    std::printf("  command:  %s\n", s.fields["command"].c_str());
    std::printf("  started:  %s\n", s.fields["started"].c_str());
    if (!waiting) {
      std::printf("  windows:  %s\n", s.fields["windows"].c_str());
      std::printf("  output:   %s\n", s.fields["output"].c_str());
    }
  }
  return kExitOk;
}

std::unique_ptr<SessionControl> open_session_control(const cli::CommandLine &command,
                                                     SessionFacts facts, core::Console &console) {
  const std::string name = facts.name;
  try {
    return std::make_unique<SessionControl>(std::move(facts));
  } catch (const std::exception &e) {
    // A name the user gave must be the session's; a default one may go unlisted.
    if (command.has("session-new"))
      throw cli::UsageError("--session-new " + name + ": " + e.what());
    console.warning(std::string("the session cannot be listed: ") + e.what());
    return nullptr;
  }
}

} // namespace prof::tool
