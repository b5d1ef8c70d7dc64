#include "tools/prof/sessions/prompt.hpp"

#include "tools/prof/sessions/detach_signal.hpp"

#include <cstdio>
#include <poll.h>
#include <unistd.h>

namespace prof::tool {
namespace {

constexpr const char *kHelp = "commands:\n"
                              "  start [NAME]  start collecting (the report is NAME, else -o's)\n"
                              "  stop          stop collecting and write the report\n"
                              "  status        say whether prof is collecting\n"
                              "  quit          stop collecting and leave; the application runs on\n"
                              "  help          this list\n";

void show(const std::string &text) {
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

} // namespace

Prompt::Prompt(core::CaptureController &controller, std::chrono::seconds start_timeout,
               int detach_fd)
    : controller_(controller), start_timeout_(start_timeout), detach_fd_(detach_fd),
      thread_([this] { run(); }) {}

Prompt::~Prompt() {
  stopping_.store(true);
  thread_.join();
}

void Prompt::detach() {
  if (controller_.state() != "waiting") controller_.command(control::Command::Stop, "");
  signal_detach(detach_fd_);
}

bool Prompt::handle(const std::string &line) {
  const size_t begin = line.find_first_not_of(" \t");
  if (begin == std::string::npos) return true;
  const size_t end = line.find_first_of(" \t", begin);
  const std::string word = line.substr(begin, end - begin);
  const size_t arg_begin = end == std::string::npos ? end : line.find_first_not_of(" \t", end);
  const std::string argument = arg_begin == std::string::npos ? "" : line.substr(arg_begin);
  // What a command did is on the console already; only refusals are told here.
  const auto answer = [&](control::Command command) {
    const std::string text = controller_.command(command, argument);
    if (text.rfind("ok", 0) != 0) show(text + "\n");
  };
  if (word == "start")
    answer(control::Command::Start);
  else if (word == "stop")
    answer(control::Command::Stop);
  else if (word == "status")
    show(controller_.state() + "\n");
  else if (word == "help")
    show(kHelp);
  else if (word == "quit" || word == "exit") {
    detach();
    return false;
  } else
    show("unknown command '" + word + "'; " + kHelp);
  return true;
}

void Prompt::run() {
  const auto deadline = std::chrono::steady_clock::now() + start_timeout_;
  std::string line;
  show("(prof) ");
  while (!stopping_.load()) {
    if (!controller_.ever_started() && std::chrono::steady_clock::now() >= deadline) {
      show("\nno start within " + std::to_string(start_timeout_.count()) +
           " s: leaving interactive mode\n");
      detach();
      return;
    }
    pollfd input{STDIN_FILENO, POLLIN, 0};
    if (poll(&input, 1, 100) <= 0) continue;
    char bytes[256];
    const ssize_t n = read(STDIN_FILENO, bytes, sizeof bytes);
    if (n <= 0) { // end of input: as quit
      show("\n");
      detach();
      return;
    }
    line.append(bytes, static_cast<size_t>(n));
    for (size_t newline; (newline = line.find('\n')) != std::string::npos;) {
      const std::string command = line.substr(0, newline);
      line.erase(0, newline + 1);
      if (!handle(command)) return;
      show("(prof) ");
    }
  }
}

} // namespace prof::tool
