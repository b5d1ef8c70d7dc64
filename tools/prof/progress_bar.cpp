#include "tools/prof/progress_bar.hpp"

#include <algorithm>
#include <cstdio>

namespace prof::tool {

namespace {
constexpr int kWidth = 41;
}

ProgressBar::ProgressBar(core::Console &console, std::string label)
    : console_(console), label_(std::move(label)) {}

std::string ProgressBar::render(double fraction) const {
  fraction = std::clamp(fraction, 0.0, 1.0);
  const int filled = static_cast<int>(fraction * kWidth + 0.5);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char tail[48];
  std::snprintf(tail, sizeof tail, "] %3d%% %.3fs", static_cast<int>(fraction * 100 + 0.5),
                seconds);
  return label_ + " [" + std::string(filled, '=') + std::string(kWidth - filled, ' ') + tail;
}

void ProgressBar::update(double fraction) {
  if (finished_ || !console_.is_terminal()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - drawn_ < std::chrono::milliseconds(50)) return;
  drawn_ = now;
  console_.raw("\r" + render(fraction));
}

void ProgressBar::finish() {
  if (finished_) return;
  finished_ = true;
  console_.raw((console_.is_terminal() ? "\r" : "") + render(1.0) + "\n");
}

} // namespace prof::tool
