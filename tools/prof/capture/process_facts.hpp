// What prof reads in /proc of a running process of this user that it
// attaches to: its command line, and its environment, where the launcher
// left the process's rank and where -o's %q{NAME} looks.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace prof::tool {

struct ProcessFacts {
  int pid = 0;
  std::string command; ///< the command line, arguments joined by spaces
  std::map<std::string, std::string> environment;
  std::string rank;       ///< the launcher's (RANK, OMPI_COMM_WORLD_RANK, ...), "" when none
  std::string world_size; ///< the size beside that rank, "" when none
};

/// Nothing when the process is gone or its files cannot be read (another
/// user's).
std::optional<ProcessFacts> read_process_facts(int pid);

/// The command line of `pid`, "" when it cannot be read.
std::string process_command(int pid);

/// The parent of `pid`, 0 when it cannot be read.
int parent_pid(int pid);

/// Whether `pid` is in prof's namespace of `kind` ("mnt": it sees the files
/// prof sees; "pid": the pids). True when that cannot be read.
bool shares_namespace(int pid, const char *kind);

/// `pid` as the process itself sees it: its id in its own (innermost) pid
/// namespace, a container's; `pid` when that cannot be read.
int innermost_pid(int pid);

/// Whether the file at `path` (a shared object) is mapped into `pid`: the
/// same device and inode in its /proc maps. False when either cannot be read.
bool maps_file(int pid, const std::string &path);

/// This machine's host name.
std::string host_name();

} // namespace prof::tool
