// Small helpers for reading the space-separated text of /proc files.
#ifndef PROF_PLUGINS_CPU_UTIL_TEXT_FIELDS_HPP
#define PROF_PLUGINS_CPU_UTIL_TEXT_FIELDS_HPP

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace prof::cpu_util {

/// Splits `text` at newlines: call next() until it returns false.
class LineReader {
public:
  explicit LineReader(std::string_view text) : rest_(text) {}
  bool next(std::string_view &line) {
    if (rest_.empty()) return false;
    const size_t end = rest_.find('\n');
    line = rest_.substr(0, end);
    rest_ = end == std::string_view::npos ? std::string_view() : rest_.substr(end + 1);
    return true;
  }

private:
  std::string_view rest_;
};

/// Returns the next whitespace-separated field of `text` and drops it from `text`.
inline std::string_view next_field(std::string_view &text) {
  size_t begin = 0;
  while (begin < text.size() && (text[begin] == ' ' || text[begin] == '\t'))
    ++begin;
  size_t end = begin;
  while (end < text.size() && text[end] != ' ' && text[end] != '\t')
    ++end;
  const std::string_view field = text.substr(begin, end - begin);
  text.remove_prefix(end);
  return field;
}

/// Parses a whole field as a signed integer.
inline std::optional<int64_t> to_int(std::string_view field) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || field.empty())
    return std::nullopt;
  return value;
}

/// Parses a whole field as an unsigned integer.
inline std::optional<uint64_t> to_uint(std::string_view field) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || field.empty())
    return std::nullopt;
  return value;
}

} // namespace prof::cpu_util

#endif
