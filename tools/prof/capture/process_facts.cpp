#include "tools/prof/capture/process_facts.hpp"

#include <prof/launcher_rank.hpp>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace prof::tool {
namespace {

std::optional<std::string> read_proc(int pid, const char *file) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/" + file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return text;
}

std::string joined(std::string text) {
  while (!text.empty() && text.back() == '\0')
    text.pop_back();
  for (char &c : text)
    if (c == '\0') c = ' ';
  return text;
}

} // namespace

std::string process_command(int pid) { return joined(read_proc(pid, "cmdline").value_or("")); }

int parent_pid(int pid) {
  const std::string stat = read_proc(pid, "stat").value_or("");
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close + 1));
  std::string state;
  int parent = 0;
  fields >> state >> parent;
  return fields ? parent : 0;
}

bool shares_namespace(int pid, const char *kind) {
  struct stat mine {
  }, theirs{};
  if (stat((std::string("/proc/self/ns/") + kind).c_str(), &mine) != 0 ||
      stat(("/proc/" + std::to_string(pid) + "/ns/" + kind).c_str(), &theirs) != 0)
    return true;
  return mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino;
}

int innermost_pid(int pid) {
  // "NSpid:\t1234\t7": from the outermost namespace to the process's own.
  std::istringstream status(read_proc(pid, "status").value_or(""));
  std::string line;
  while (std::getline(status, line)) {
    if (!line.starts_with("NSpid:")) continue;
    std::istringstream fields(line.substr(6));
    int id = 0, last = 0;
    while (fields >> id)
      last = id;
    return last > 0 ? last : pid;
  }
  return pid;
}

bool maps_file(int pid, const std::string &path) {
  struct stat file {};
  if (stat(path.c_str(), &file) != 0) return false;
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  // "start-end perms offset major:minor inode path", numbers but the inode in hex.
  std::string line, range, perms, offset, device;
  while (std::getline(maps, line)) {
    std::istringstream fields(line);
    unsigned long inode = 0;
    if (!(fields >> range >> perms >> offset >> device >> inode) || inode != file.st_ino) continue;
    unsigned int major_number = 0, minor_number = 0;
    if (std::sscanf(device.c_str(), "%x:%x", &major_number, &minor_number) == 2 &&
        major_number == major(file.st_dev) && minor_number == minor(file.st_dev))
      return true;
  }
  return false;
}

std::optional<ProcessFacts> read_process_facts(int pid) {
  const std::optional<std::string> environ = read_proc(pid, "environ");
  if (!environ) return std::nullopt;
  ProcessFacts facts{pid, process_command(pid), {}, "", ""};
  size_t at = 0;
  while (at < environ->size()) {
    const size_t end = std::min(environ->find('\0', at), environ->size());
    const std::string entry = environ->substr(at, end - at);
    if (const size_t equals = entry.find('='); equals != std::string::npos && equals > 0)
      facts.environment.emplace(entry.substr(0, equals), entry.substr(equals + 1));
    at = end + 1;
  }
  for (size_t i = 0; i < std::size(kLauncherRankVariables); ++i) {
    const auto rank = facts.environment.find(kLauncherRankVariables[i]);
    if (rank == facts.environment.end() || rank->second.empty()) continue;
    facts.rank = rank->second;
    if (const auto size = facts.environment.find(kLauncherWorldSizeVariables[i]);
        size != facts.environment.end())
      facts.world_size = size->second;
    break;
  }
  return facts;
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

} // namespace prof::tool
