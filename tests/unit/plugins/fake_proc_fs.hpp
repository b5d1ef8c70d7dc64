// An in-memory /proc for sampler tests: files by relative path, and the
// children each process lists (or no children files at all).
#ifndef PROF_TESTS_PLUGINS_FAKE_PROC_FS_HPP
#define PROF_TESTS_PLUGINS_FAKE_PROC_FS_HPP

#include "proc_fs.hpp"

#include <map>
#include <set>
#include <string>

namespace prof::testing {

class FakeProcFs final : public cpu_util::ProcFs {
public:
  std::map<std::string, std::string, std::less<>> files;
  std::map<int, std::vector<int>> children_of;
  bool has_children_files = true;
  std::set<int> in_our_memory; ///< processes held before exec in the sampler's memory

  /// Adds /proc/PID/stat for a process with the given times (ticks) and RSS (pages).
  void set_process(int pid, int ppid, uint64_t utime, uint64_t cutime = 0,
                   uint64_t start_time = 1000, uint64_t rss_pages = 0, char state = 'S') {
    files[std::to_string(pid) + "/stat"] =
        std::to_string(pid) + " (proc " + std::to_string(pid) + ") " + state + " " +
        std::to_string(ppid) + " 1 1 0 -1 4194304 0 0 0 0 " + std::to_string(utime) + " 0 " +
        std::to_string(cutime) + " 0 20 0 1 0 " + std::to_string(start_time) + " 1000000 " +
        std::to_string(rss_pages) + " 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0\n";
  }
  void remove_process(int pid) {
    files.erase(std::to_string(pid) + "/stat");
    files.erase(std::to_string(pid) + "/status");
    children_of.erase(pid);
  }

  std::optional<std::string> read(std::string_view path) const override {
    auto found = files.find(path);
    if (found == files.end()) return std::nullopt;
    return found->second;
  }
  std::optional<std::vector<int>> children(int pid) const override {
    if (!has_children_files) return std::nullopt;
    auto found = children_of.find(pid);
    return found == children_of.end() ? std::vector<int>{} : found->second;
  }
  mutable int memory_questions = 0; ///< calls of shares_our_memory()
  bool shares_our_memory(int pid) const override {
    ++memory_questions;
    return in_our_memory.contains(pid);
  }
  std::vector<int> pids() const override {
    std::vector<int> found;
    for (const auto &[path, text] : files) {
      const size_t slash = path.find("/stat");
      if (slash != std::string::npos && path.substr(slash) == "/stat")
        found.push_back(std::stoi(path.substr(0, slash)));
    }
    return found;
  }
};

} // namespace prof::testing

#endif
