#include "meminfo.hpp"

#include "text_fields.hpp"

namespace prof::cpu_util {

std::optional<SystemMemory> parse_meminfo(std::string_view text) {
  std::optional<uint64_t> total, available;
  uint64_t free = 0, buffers = 0, cached = 0;
  LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, colon);
    std::string_view rest = line.substr(colon + 1);
    const auto kib = to_uint(next_field(rest));
    if (!kib) continue;
    const uint64_t bytes = *kib * 1024; // the kernel's "kB" means KiB
    if (key == "MemTotal")
      total = bytes;
    else if (key == "MemAvailable")
      available = bytes;
    else if (key == "MemFree")
      free = bytes;
    else if (key == "Buffers")
      buffers = bytes;
    else if (key == "Cached")
      cached = bytes;
  }
  if (!total) return std::nullopt;
  return SystemMemory{*total, available.value_or(free + buffers + cached)};
}

} // namespace prof::cpu_util
