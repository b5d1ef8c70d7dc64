#include "core/agent/trigger_watch.hpp"

#include "core/agent/quiet_thread.hpp"

#include "core/control/control_folder.hpp"
#include "core/control/local_time.hpp"
#include "core/control/trigger_request.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <pthread.h>
#include <set>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace prof::agent {
namespace {

namespace fs = std::filesystem;

// Never freed: the thread may still be between two looks when the process
// exits, and must not find it destroyed.
struct Watch {
  std::string dir;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> ignored{0};
  std::set<std::string> seen; ///< file names looked at (the thread's own)
  std::set<std::string> ids;  ///< request ids acted on or left to another agent
  std::vector<pid_t> children;
};

std::atomic<Watch *> g_watch{nullptr};

void log_line(const std::string &text) {
  try {
    const fs::path folder = control::control_folder();
    control::ensure_private_folder(folder);
    std::ofstream out(folder / ("trigger-" + std::to_string(getpid()) + ".log"), std::ios::app);
    out << control::local_time_now() << ' ' << text << '\n';
  } catch (const std::exception &) {
  } // no session folder: nowhere to say it
}

void ignore(Watch &watch, const std::string &path, const std::string &why) {
  const uint64_t count = watch.ignored.fetch_add(1) + 1;
  log_line("ignored " + path + ": " + why + " (" + std::to_string(count) + " ignored so far)");
}

// <prefix>/bin/prof beside this agent (<prefix>/lib/prof/libprof-agent.so).
std::string prof_beside_agent() {
  Dl_info self{};
  if (dladdr(reinterpret_cast<const void *>(&prof_beside_agent), &self) == 0 || !self.dli_fname)
    return {};
  const fs::path prof =
      fs::path(self.dli_fname).parent_path().parent_path().parent_path() / "bin" / "prof";
  return access(prof.c_str(), X_OK) == 0 ? prof.string() : std::string();
}

// The application's environment less what would make prof itself a
// profiled (or waiting) process.
std::vector<std::string> prof_environment() {
  std::vector<std::string> kept;
  for (char **entry = environ; entry && *entry; ++entry) {
    const std::string_view item(*entry);
    if (item.starts_with("PROF_MODE=") || item.starts_with("PROF_TRIGGER_DIR=") ||
        item.starts_with("PROF_AGENT_SHM="))
      continue;
    if (item.starts_with("LD_PRELOAD=")) {
      std::string preload;
      std::string_view rest = item.substr(11);
      while (!rest.empty()) {
        const size_t end = std::min(rest.find_first_of(": "), rest.size());
        const std::string_view library = rest.substr(0, end);
        if (!library.empty() && library.find("libprof-agent") == std::string_view::npos)
          preload += (preload.empty() ? "" : ":") + std::string(library);
        rest.remove_prefix(std::min(end + 1, rest.size()));
      }
      if (!preload.empty()) kept.push_back("LD_PRELOAD=" + preload);
      continue;
    }
    kept.emplace_back(item);
  }
  return kept;
}

// Starts prof for the request, its console in the session folder.
void carry_out(Watch &watch, const control::TriggerRequest &request) {
  const std::string prof = prof_beside_agent();
  if (prof.empty()) {
    log_line("request " + request.id + ": prof is not installed beside this agent");
    return;
  }
  const fs::path folder = control::control_folder();
  const std::string console = (folder / ("trigger-" + request.id + ".log")).string();
  std::vector<std::string> args{prof, "attach", "--all", "--trigger-dir", watch.dir};
  for (std::string &arg : control::trigger_arguments(request))
    args.push_back(std::move(arg));
  const std::vector<std::string> environment = prof_environment();
  std::vector<char *> argv, envp;
  for (const std::string &arg : args)
    argv.push_back(const_cast<char *>(arg.c_str()));
  argv.push_back(nullptr);
  for (const std::string &item : environment)
    envp.push_back(const_cast<char *>(item.c_str()));
  envp.push_back(nullptr);

  posix_spawn_file_actions_t files;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, console.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_init(&attributes);
  // Its own session (the application's terminal signals do not reach it),
  // with default signal handling and nothing blocked.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t child = 0;
  const int failed =
      posix_spawn(&child, prof.c_str(), &files, &attributes, argv.data(), envp.data());
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&files);
  if (failed != 0) {
    log_line("request " + request.id + ": cannot start " + prof + ": " + std::strerror(failed));
    return;
  }
  watch.children.push_back(child);
  log_line("request " + request.id + ": prof " + std::to_string(child) +
           " captures this host's processes; its console: " + console);
}

// A new file in the folder: a request to act on, or one to ignore.
void look_at(Watch &watch, const std::string &name) {
  const std::string path = watch.dir + "/" + name;
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) ignore(watch, path, std::string("cannot open: ") + std::strerror(errno));
    return;
  }
  struct stat info {};
  std::string text;
  std::string problem;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    problem = "expected a regular file";
  } else if (info.st_uid != geteuid()) {
    problem = "owned by user " + std::to_string(info.st_uid) + ", not this process's user";
  } else if (info.st_mode & (S_IWGRP | S_IWOTH)) {
    problem = "others may write it: expected mode 0600 or 0644";
  } else if (static_cast<size_t>(info.st_size) > control::kTriggerRequestMaxBytes) {
    problem = "expected at most " + std::to_string(control::kTriggerRequestMaxBytes) + " bytes";
  } else {
    text.resize(static_cast<size_t>(info.st_size));
    const ssize_t got = read(fd, text.data(), text.size());
    if (got < 0) problem = std::string("cannot read: ") + std::strerror(errno);
    text.resize(got < 0 ? 0 : static_cast<size_t>(got));
  }
  close(fd);
  if (!problem.empty()) return ignore(watch, path, problem);
  std::string error;
  const std::optional<control::TriggerRequest> request =
      control::parse_trigger_request(text, &error);
  if (!request) return ignore(watch, path, "not a capture request: " + error);
  if (!watch.ids.insert(request->id).second) return; // once per id
  // The first agent of this host to claim the id carries it out for all.
  const fs::path claim = control::control_folder() / ("trigger-" + request->id + ".claim");
  const int claimed = open(claim.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (claimed < 0) return;
  close(claimed);
  carry_out(watch, *request);
}

void scan(Watch &watch, bool act) {
  DIR *folder = opendir(watch.dir.c_str());
  if (!folder) return;
  std::vector<std::string> fresh;
  while (const dirent *entry = readdir(folder)) {
    const std::string name = entry->d_name;
    // Hidden files are requests being written (renamed when complete).
    if (name.empty() || name[0] == '.' || !name.ends_with(".json")) continue;
    if (watch.seen.insert(name).second) fresh.push_back(name);
  }
  closedir(folder);
  if (act)
    for (const std::string &name : fresh)
      look_at(watch, name);
}

void reap(Watch &watch) {
  std::erase_if(watch.children, [](pid_t child) {
    const pid_t done = waitpid(child, nullptr, WNOHANG);
    return done == child || (done < 0 && errno == ECHILD); // or the application reaped it
  });
}

void run(Watch *watch) {
  try {
    scan(*watch, false); // requests older than this process are not for it
    while (!watch->stop.load()) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      if (watch->stop.load() || g_watch.load() != watch) break;
      reap(*watch);
      scan(*watch, true);
    }
  } catch (const std::exception &e) {
    log_line(std::string("stopped watching for capture requests: ") + e.what());
  }
}

} // namespace

bool start_trigger_watch(const char *dir, std::string *error) {
  std::error_code ec;
  const fs::path folder = fs::canonical(dir, ec);
  if (ec || !fs::is_directory(folder, ec)) {
    *error = std::string("PROF_TRIGGER_DIR '") + dir + "' is not a folder";
    return false;
  }
  auto *watch = new Watch;
  watch->dir = folder.string();
  g_watch.store(watch);
  if (start_quiet_thread(
          "prof-trigger", [watch] { run(watch); }, error))
    return true;
  g_watch.store(nullptr);
  return false;
}

void stop_trigger_watch() {
  if (Watch *watch = g_watch.load()) watch->stop.store(true);
}

void forget_trigger_watch() { g_watch.store(nullptr); }

std::string trigger_watch_fields() {
  const Watch *watch = g_watch.load();
  if (!watch) return {};
  return "\ttrigger_dir=" + watch->dir +
         "\ttriggers_ignored=" + std::to_string(watch->ignored.load());
}

} // namespace prof::agent
