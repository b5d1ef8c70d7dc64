// Text for the HTML page of `prof stats --format html` and its SVG charts:
// escaped for HTML, numbers as SVG coordinates.
#pragma once

#include <cstdio>
#include <string>

namespace prof::stats {

inline std::string escaped(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// A coordinate or a length, one decimal.
inline std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

} // namespace prof::stats
