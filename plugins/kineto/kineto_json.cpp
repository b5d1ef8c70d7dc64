#include "kineto_json.hpp"

#include <charconv>
#include <cmath>

namespace prof::kineto {

void append_int(std::string &out, int64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void append_uint(std::string &out, uint64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void append_microseconds(std::string &out, int64_t ns) {
  uint64_t magnitude = static_cast<uint64_t>(ns);
  if (ns < 0) {
    out += '-';
    magnitude = 0 - magnitude;
  }
  append_uint(out, magnitude / 1000);
  const auto fraction = static_cast<unsigned>(magnitude % 1000);
  out += '.';
  out += static_cast<char>('0' + fraction / 100);
  out += static_cast<char>('0' + fraction / 10 % 10);
  out += static_cast<char>('0' + fraction % 10);
}

bool append_double(std::string &out, double value) {
  if (!std::isfinite(value)) return false;
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
  return true;
}

} // namespace prof::kineto
