#include "proc_fs.hpp"

#include "text_fields.hpp"

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <memory>
#include <sys/syscall.h>
#include <unistd.h>

namespace prof::cpu_util {
namespace {

struct DirCloser {
  void operator()(DIR *dir) const { closedir(dir); }
};
using DirHandle = std::unique_ptr<DIR, DirCloser>;

/// Calls `visit` with every all-digit entry of `path`; false when it cannot be opened.
template <class Visit> bool for_each_number(const std::string &path, Visit visit) {
  DirHandle dir(opendir(path.c_str()));
  if (!dir) return false;
  while (const dirent *entry = readdir(dir.get())) {
    if (const auto number = to_int(entry->d_name); number && *number > 0)
      visit(static_cast<int>(*number));
  }
  return true;
}

} // namespace

SystemProcFs::SystemProcFs(std::string root) : root_(std::move(root)) {
  // CONFIG_PROC_CHILDREN kernels have it; others need a scan of every pid.
  const std::string probe =
      root_ + "/self/task/" + std::to_string(static_cast<long>(gettid())) + "/children";
  has_children_files_ = access(probe.c_str(), R_OK) == 0;
}

std::optional<std::string> SystemProcFs::read(std::string_view relative_path) const {
  const std::string path = root_ + "/" + std::string(relative_path);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int error = errno;
      close(fd);
      errno = error;
      return std::nullopt;
    }
    if (got == 0) break;
    text.append(buffer, static_cast<size_t>(got));
  }
  close(fd);
  return text;
}

std::optional<std::vector<int>> SystemProcFs::children(int pid) const {
  if (!has_children_files_) return std::nullopt;
  std::vector<int> found;
  const std::string task_dir = root_ + "/" + std::to_string(pid) + "/task";
  for_each_number(task_dir, [&](int tid) {
    // A thread that exits meanwhile just has nothing to say.
    const auto text = read(std::to_string(pid) + "/task/" + std::to_string(tid) + "/children");
    if (!text) return;
    std::string_view rest = *text;
    for (std::string_view field = next_field(rest); !field.empty(); field = next_field(rest)) {
      if (const auto child = to_int(field)) found.push_back(static_cast<int>(*child));
    }
  });
  return found;
}

std::vector<int> SystemProcFs::pids() const {
  std::vector<int> found;
  for_each_number(root_, [&](int pid) { found.push_back(pid); });
  return found;
}

bool SystemProcFs::shares_our_memory(int pid) const {
  // kcmp answers 0 for one address space; a kernel without it (or a process
  // gone) answers -1: then the process is taken as running on its own.
  const pid_t self = getpid();
  return pid != self && syscall(SYS_kcmp, self, pid, KCMP_VM, 0, 0) == 0;
}

} // namespace prof::cpu_util
