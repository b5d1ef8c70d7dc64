// topsprof's post-processing progress line:
//   process profile data [=========================================] 100% 0.232s
// Redrawn in place on a terminal; printed once, complete, otherwise.
#pragma once

#include "core/plugin_host/console.hpp"

#include <chrono>
#include <string>

namespace prof::tool {

class ProgressBar {
public:
  ProgressBar(core::Console &console, std::string label);
  /// Sets progress to `fraction` (0..1); redraws at most every 50 ms.
  void update(double fraction);
  /// Draws 100% with the elapsed time and ends the line.
  void finish();

private:
  std::string render(double fraction) const;

  core::Console &console_;
  std::string label_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point drawn_{};
  bool finished_ = false;
};

} // namespace prof::tool
