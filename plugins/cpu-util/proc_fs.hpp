// Access to the /proc file system behind an interface, so the sampler can
// be tested on captured texts.
#ifndef PROF_PLUGINS_CPU_UTIL_PROC_FS_HPP
#define PROF_PLUGINS_CPU_UTIL_PROC_FS_HPP

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::cpu_util {

class ProcFs {
public:
  virtual ~ProcFs() = default;
  /// Whole text of a file below the proc root ("stat", "1234/status"),
  /// nullopt when it cannot be read (errno then says why).
  virtual std::optional<std::string> read(std::string_view relative_path) const = 0;
  /// Child pids of every thread of `pid`; empty when the process is gone;
  /// nullopt when the kernel has no task/TID/children files.
  virtual std::optional<std::vector<int>> children(int pid) const = 0;
  /// Every process id the proc root lists.
  virtual std::vector<int> pids() const = 0;
  /// Whether `pid`, another process, still runs in this process's memory:
  /// the application prof started, held before its exec in prof's own
  /// address space, whose RSS is then prof's.
  virtual bool shares_our_memory(int pid) const = 0;
};

/// The real /proc (or another mount of procfs).
class SystemProcFs final : public ProcFs {
public:
  explicit SystemProcFs(std::string root = "/proc");

  std::optional<std::string> read(std::string_view relative_path) const override;
  std::optional<std::vector<int>> children(int pid) const override;
  std::vector<int> pids() const override;
  bool shares_our_memory(int pid) const override;

private:
  std::string root_;
  bool has_children_files_ = false;
};

} // namespace prof::cpu_util

#endif
