// The osrt options, read and checked once in configure() (their defaults are
// the option table's, in osrt_source.hpp).
#ifndef PROF_PLUGINS_OSRT_OSRT_SETTINGS_HPP
#define PROF_PLUGINS_OSRT_OSRT_SETTINGS_HPP

#include <cstdint>

namespace prof::osrt {

struct OsrtSettings {
  uint64_t threshold_ns = 0;           ///< shorter calls are not recorded
  uint64_t backtrace_threshold_ns = 0; ///< calls at least this long carry a stack
  int backtrace_depth = 0;             ///< most frames per stack, 1..127
  bool allow_tsc = false;              ///< time calls with the TSC where reliable
  bool python_frames = false;          ///< stacks of Python processes name Python frames
};

} // namespace prof::osrt

#endif
