#include "capture.hpp"

#include <dirent.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace prof::cpu_perf {
namespace {

std::vector<int32_t> numeric_entries(const std::string &dir) {
  std::vector<int32_t> out;
  DIR *d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent *e = readdir(d)) {
    char *end = nullptr;
    const long n = std::strtol(e->d_name, &end, 10);
    if (end != e->d_name && *end == '\0' && n > 0) out.push_back(static_cast<int32_t>(n));
  }
  closedir(d);
  return out;
}

void read_maps(int32_t pid, ProcessSnapshot &out) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  while (std::getline(in, line)) {
    unsigned long long lo = 0, hi = 0, off = 0;
    char perms[8] = {};
    int path_at = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx %7s %llx %*s %*s%n", &lo, &hi, perms, &off,
                    &path_at) < 4)
      continue;
    if (perms[2] != 'x') continue;
    std::string path = line.substr(static_cast<size_t>(path_at));
    path.erase(0, path.find_first_not_of(' '));
    out.maps.push_back({pid, lo, hi - lo, off, path});
  }
}

} // namespace

ProcessSnapshot snapshot_processes(const std::vector<int32_t> &pids) {
  ProcessSnapshot out;
  const std::vector<int32_t> all = pids.empty() ? numeric_entries("/proc") : pids;
  for (int32_t pid : all) {
    read_maps(pid, out);
    const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
    for (int32_t tid : numeric_entries(tasks)) {
      std::ifstream comm(tasks + "/" + std::to_string(tid) + "/comm");
      std::string name;
      std::getline(comm, name);
      out.threads[tid] = ThreadInfo{pid, name};
    }
  }
  return out;
}

} // namespace prof::cpu_perf
