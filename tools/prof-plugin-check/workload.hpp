// The application a source needs to see work from (a device runtime's
// calls, say), stood in for by a shared library that exports
//   void prof_check_workload(void);
// The checker loads it before the plugin, with its symbols global as an
// application's are, and calls it in every run while the source is started.
#pragma once

#include <filesystem>
#include <string>

namespace prof::plugin_check {

/// Name of the function a workload library exports.
inline constexpr const char *kWorkloadSymbol = "prof_check_workload";

class Workload {
public:
  /// Loads `library`; throws core::InputError naming it when it cannot be
  /// loaded or does not export kWorkloadSymbol.
  explicit Workload(const std::filesystem::path &library);
  Workload(const Workload &) = delete;
  Workload &operator=(const Workload &) = delete;

  /// One round of the workload's work.
  void run() const { run_(); }

private:
  void (*run_)() = nullptr;
};

} // namespace prof::plugin_check
