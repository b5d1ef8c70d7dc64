// Parsing of /proc/meminfo: how much system memory is in use.
#ifndef PROF_PLUGINS_CPU_UTIL_MEMINFO_HPP
#define PROF_PLUGINS_CPU_UTIL_MEMINFO_HPP

#include <cstdint>
#include <optional>
#include <string_view>

namespace prof::cpu_util {

struct SystemMemory {
  uint64_t total_bytes = 0;
  uint64_t available_bytes = 0;

  uint64_t used_bytes() const {
    return total_bytes > available_bytes ? total_bytes - available_bytes : 0;
  }
  double used_percent() const {
    return total_bytes == 0
               ? 0.0
               : 100.0 * static_cast<double>(used_bytes()) / static_cast<double>(total_bytes);
  }
};

/// Parses the text of /proc/meminfo. Without MemAvailable (kernels before
/// 3.14) the available memory is estimated as MemFree + Buffers + Cached.
/// nullopt when MemTotal is missing.
std::optional<SystemMemory> parse_meminfo(std::string_view text);

} // namespace prof::cpu_util

#endif
