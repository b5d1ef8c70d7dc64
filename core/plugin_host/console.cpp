#include "core/plugin_host/console.hpp"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace prof::core {

std::string with_plugin_name(const std::string &name, const std::string &text) {
  return text.rfind(name + ": ", 0) == 0 ? text : name + ": " + text;
}

Console::Console() : out_(stdout) {}

Console::Console(std::FILE *out) : out_(out) {}

Console::~Console() {
  if (log_) std::fclose(log_);
}

bool Console::open_log_file(const std::string &path, std::string *error) {
  std::FILE *file = std::fopen(path.c_str(), "w");
  if (!file) {
    *error = "cannot open log file '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::lock_guard lock(mutex_);
  if (log_) std::fclose(log_);
  log_ = file;
  out_ = file;
  return true;
}

bool Console::is_terminal() const { return !log_ && isatty(fileno(out_)); }

void Console::line(const std::string &text) {
  if (quiet_) return;
  std::lock_guard lock(mutex_);
  end_open_line();
  if (pid_ > 0)
    std::fprintf(out_, "==%d== %s\n", pid_, text.c_str());
  else
    std::fprintf(out_, "%s\n", text.c_str());
  std::fflush(out_);
}

void Console::raw(const std::string &text) {
  if (quiet_) return;
  std::lock_guard lock(mutex_);
  std::fputs(text.c_str(), out_);
  std::fflush(out_);
  if (!text.empty()) line_open_ = text.back() != '\n';
}

void Console::end_open_line() {
  if (!line_open_) return;
  std::fputs("\n", out_);
  std::fflush(out_);
  line_open_ = false;
}

void Console::warning(const std::string &text) {
  std::lock_guard lock(mutex_);
  end_open_line(); // a progress bar shares the terminal with stderr
  std::fprintf(stderr, "prof: warning: %s\n", text.c_str());
  if (log_) std::fprintf(log_, "prof: warning: %s\n", text.c_str());
}

} // namespace prof::core
