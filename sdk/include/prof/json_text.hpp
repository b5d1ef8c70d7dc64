// JSON text for anything prof writes as JSON (exporters, prof stats, the
// device trees): strings escaped, integers, doubles and trace-event times;
// header-only, so a plugin needs nothing else.
#ifndef PROF_JSON_TEXT_HPP
#define PROF_JSON_TEXT_HPP

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace prof {

namespace json_detail {

inline bool continuation(std::string_view s, size_t i, unsigned char low = 0x80,
                  unsigned char high = 0xBF) {
  if (i >= s.size()) return false;
  const auto c = static_cast<unsigned char>(s[i]);
  return c >= low && c <= high;
}

/// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF), 0 when it is not one.
inline size_t utf8_length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c >= 0xC2 && c <= 0xDF) return continuation(s, i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const unsigned char low = c == 0xE0 ? 0xA0 : 0x80;
    const unsigned char high = c == 0xED ? 0x9F : 0xBF;
    return continuation(s, i + 1, low, high) && continuation(s, i + 2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned char low = c == 0xF0 ? 0x90 : 0x80;
    const unsigned char high = c == 0xF4 ? 0x8F : 0xBF;
    return continuation(s, i + 1, low, high) && continuation(s, i + 2) && continuation(s, i + 3)
               ? 4
               : 0;
  }
  return 0;
}

} // namespace json_detail

/// Appends `text` as a quoted JSON string: quotes, backslashes and control
/// characters escaped, each byte of invalid UTF-8 replaced by \ufffd, so
/// the result is valid JSON whatever the bytes.
inline void append_json_string(std::string &out, std::string_view text) {
  using json_detail::utf8_length;
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
      }
      ++i;
      continue;
    }
    const size_t length = utf8_length(text, i);
    if (length == 0) {
      out += "\\ufffd";
      ++i;
    } else {
      out.append(text.data() + i, length);
      i += length;
    }
  }
  out += '"';
}

/// Appends an integer.
inline void append_int(std::string &out, int64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

/// Appends an unsigned integer.
inline void append_uint(std::string &out, uint64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

/// Appends nanoseconds as microseconds with three decimals ("-1234.567"),
/// as trace-event JSON (Chrome's, Kineto's) counts time.
inline void append_microseconds(std::string &out, int64_t ns) {
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

/// Appends a finite double in its shortest exact form; false (nothing
/// appended) for NaN and infinities, which JSON cannot hold.
inline bool append_double(std::string &out, double value) {
  if (!std::isfinite(value)) return false;
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
  return true;
}

} // namespace prof

#endif
