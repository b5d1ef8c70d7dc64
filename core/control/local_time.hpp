// The local time as sessions and their logs show it: ISO 8601 to the second.
#pragma once

#include <ctime>
#include <string>

namespace prof::control {

inline std::string local_time_now() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &local);
  return text;
}

} // namespace prof::control
