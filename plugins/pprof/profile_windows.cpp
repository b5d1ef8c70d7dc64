#include "profile_windows.hpp"

namespace prof::pprof {

std::vector<ProfileWindow> time_windows(uint64_t first, uint64_t last, uint64_t period) {
  std::vector<ProfileWindow> windows;
  if (period == 0 || last < first) return {{first, last + 1, -1}};
  for (uint64_t begin = first; begin <= last; begin += period) {
    windows.push_back({begin, begin + period, -1});
    if (begin + period < begin) break; // past the clock's end
  }
  return windows;
}

std::vector<ProfileWindow> step_windows(const std::set<int64_t> &steps, uint64_t first,
                                        uint64_t last) {
  std::vector<ProfileWindow> windows;
  for (int64_t step : steps)
    windows.push_back({first, last + 1, step});
  return windows;
}

std::string window_path(std::string_view path, std::string_view label) {
  const size_t slash = path.rfind('/');
  const size_t name = slash == std::string_view::npos ? 0 : slash + 1;
  size_t dot = path.ends_with(".pb.gz") ? path.size() - 6 : path.rfind('.');
  if (dot == std::string_view::npos || dot <= name) dot = path.size();
  return std::string(path.substr(0, dot)) + "-" + std::string(label) +
         std::string(path.substr(dot));
}

} // namespace prof::pprof
