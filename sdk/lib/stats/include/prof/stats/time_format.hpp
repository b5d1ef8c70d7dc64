// Durations printed the way topsprof prints them: two decimals and the
// largest of ns/us/ms/s that keeps the number under 1000. Shared by the
// summary and trace exporters.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace prof::stats {

/// Formats `ns` nanoseconds as e.g. "0.00ns", "15.62us", "514.88ms", "1.20s".
/// Rounds half up to two decimals before choosing the unit, so 999999ns
/// prints "1.00ms", never "1000.00us".
inline std::string format_duration(uint64_t ns) {
  struct Unit {
    uint64_t divisor;
    const char *suffix;
  };
  static constexpr Unit units[] = {{1, "ns"}, {1000, "us"}, {1000000, "ms"}, {1000000000, "s"}};
  constexpr size_t last = sizeof(units) / sizeof(units[0]) - 1;
  for (size_t i = 0; i <= last; ++i) {
    const Unit &unit = units[i];
    // Split before scaling so nothing overflows for any uint64_t input.
    const uint64_t whole = ns / unit.divisor;
    const uint64_t rest = ns % unit.divisor;
    const uint64_t hundredths = whole * 100 + (rest * 100 + unit.divisor / 2) / unit.divisor;
    if (hundredths < 100000 || i == last) {
      char text[48];
      std::snprintf(text, sizeof text, "%llu.%02llu%s",
                    static_cast<unsigned long long>(hundredths / 100),
                    static_cast<unsigned long long>(hundredths % 100), unit.suffix);
      return text;
    }
  }
  return {};
}

} // namespace prof::stats
