#include <prof/activity/name_match.hpp>

#include <algorithm>
#include <limits>

namespace prof::activity {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

} // namespace

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return lower(x) == lower(y); });
}

std::optional<uint64_t> parse_decimal(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    const uint64_t max = std::numeric_limits<uint64_t>::max();
    value = value > (max - digit) / 10 ? max : value * 10 + digit;
  }
  return value;
}

IndexedMatch match_indexed(std::string_view word, std::string_view name) {
  if (iequals(word, name)) return {IndexedMatch::Every, 0};
  if (name.empty() || word.size() <= name.size() || !iequals(word.substr(0, name.size()), name))
    return {};
  const std::optional<uint64_t> index = parse_decimal(word.substr(name.size()));
  if (!index) return {};
  return {IndexedMatch::One, *index};
}

std::string brief_list(const std::vector<std::string_view> &names, std::size_t max) {
  if (names.empty()) return "none";
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < max; ++i) {
    if (i) out += ", ";
    out += names[i];
  }
  if (names.size() > max) out += ", ... (" + std::to_string(names.size()) + " in all)";
  return out;
}

std::string index_span(uint64_t count) {
  return count == 0 ? "none" : "0 ~ " + std::to_string(count - 1);
}

std::string index_range(uint64_t count) { return "(" + index_span(count) + ")"; }

} // namespace prof::activity
