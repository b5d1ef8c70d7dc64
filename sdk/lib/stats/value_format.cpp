#include <prof/stats/value_format.hpp>

#include <cmath>
#include <cstdio>

namespace prof::stats {

std::string format_bytes(double bytes) {
  static constexpr const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  constexpr size_t last = sizeof(units) / sizeof(units[0]) - 1;
  double scaled = bytes;
  size_t unit = 0;
  // Compare the rounded value so 1023.999 KiB becomes "1.00MiB", not "1024.00KiB".
  while (unit < last && std::fabs(std::round(scaled * 100.0)) >= 102400.0) {
    scaled /= 1024.0;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.2f%s", scaled, units[unit]);
  return text;
}

std::string format_counter_value(double value, std::string_view unit) {
  char text[64];
  if (unit == "%") {
    std::snprintf(text, sizeof text, "%.2f%%", value);
  } else if (unit == "bytes") {
    return format_bytes(value);
  } else if (std::fabs(value) < 1e15 && value == std::trunc(value)) {
    std::snprintf(text, sizeof text, "%.0f", value);
  } else {
    std::snprintf(text, sizeof text, "%.2f", value);
  }
  return text;
}

} // namespace prof::stats
