#include <prof/stats/natural_order.hpp>

namespace prof::stats {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Length of the digit run at `text[at]`, leading zeros skipped into `start`.
size_t digit_run(std::string_view text, size_t at, size_t &start) {
  size_t end = at;
  while (end < text.size() && is_digit(text[end]))
    ++end;
  start = at;
  while (start + 1 < end && text[start] == '0')
    ++start;
  return end;
}

} // namespace

bool natural_less(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      size_t a_start, b_start;
      const size_t a_end = digit_run(a, i, a_start);
      const size_t b_end = digit_run(b, j, b_start);
      const std::string_view a_number = a.substr(a_start, a_end - a_start);
      const std::string_view b_number = b.substr(b_start, b_end - b_start);
      if (a_number.size() != b_number.size()) return a_number.size() < b_number.size();
      if (a_number != b_number) return a_number < b_number;
      i = a_end;
      j = b_end;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b; // equal by nature ("cpu01" vs "cpu1"): keep a total order
}

} // namespace prof::stats
