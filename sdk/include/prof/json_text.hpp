// JSON string escaping for anything prof writes as JSON (exporters, prof
// stats, the device trees): header-only, so a plugin needs nothing else.
#ifndef PROF_JSON_TEXT_HPP
#define PROF_JSON_TEXT_HPP

#include <cstddef>
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

} // namespace prof

#endif
