// prof's console output: capture lines carry the "==PID== " prefix as in
// topsprof; --quiet silences them; --log-file sends them to a file instead.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>

namespace prof::core {

/// "NAME: TEXT", unless TEXT already starts with "NAME: " (plugins often
/// name themselves in their messages).
std::string with_plugin_name(const std::string &name, const std::string &text);

class Console {
public:
  Console();
  /// Writes to `out` instead of stdout (tests give it a terminal).
  explicit Console(std::FILE *out);
  ~Console();
  Console(const Console &) = delete;
  Console &operator=(const Console &) = delete;

  /// Prefix following lines with "==PID== " (0: no prefix).
  void set_pid(int pid) { pid_ = pid; }
  int pid() const { return pid_; }
  void set_quiet(bool quiet) { quiet_ = quiet; }
  bool quiet() const { return quiet_; }
  /// Sends output to `path` from now on; false with `error` set on failure.
  bool open_log_file(const std::string &path, std::string *error);
  /// Whether output goes to a terminal (progress bars redraw in place there).
  bool is_terminal() const;

  /// One line of capture output, prefixed.
  void line(const std::string &text);
  /// Text without prefix or newline (progress bars). A line left open is
  /// ended before the next line() or warning() prints.
  void raw(const std::string &text);
  /// A warning on stderr ("prof: warning: ..."), shown even when quiet.
  void warning(const std::string &text);

private:
  std::FILE *out_;
  std::FILE *log_ = nullptr;
  /// Ends a line raw() left open; call with mutex_ held.
  void end_open_line();

  int pid_ = 0;
  bool quiet_ = false;
  bool line_open_ = false;
  std::mutex mutex_;
};

} // namespace prof::core
