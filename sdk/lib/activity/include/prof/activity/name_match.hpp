// How a user's word names something in the device tree: case-insensitive,
// optionally with an instance index appended ("cluster1", "sdma2").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::activity {

/// ASCII case-insensitive equality.
bool iequals(std::string_view a, std::string_view b);

/// The value of a non-empty string of decimal digits, saturating at
/// UINT64_MAX; nullopt for anything else (signs, spaces, "").
std::optional<uint64_t> parse_decimal(std::string_view digits);

/// How `word` names `name`.
struct IndexedMatch {
  enum Kind { None, Every, One } kind = None;
  uint64_t index = 0; ///< for One; UINT64_MAX when the digits overflow
};

/// "sdma" names every SDMA, "sdma2" the third one, "sdmax" none (any case).
/// An exact match wins over reading trailing digits as an index.
IndexedMatch match_indexed(std::string_view word, std::string_view name);

/// "a, b, c" or "a, b, c, ... (12 in all)" past `max` names; "none" when empty.
std::string brief_list(const std::vector<std::string_view> &names, std::size_t max = 8);

/// "0 ~ 3", or "none" for a count of 0.
std::string index_span(uint64_t count);
/// "(0 ~ 3)", or "(none)" for a count of 0.
std::string index_range(uint64_t count);

} // namespace prof::activity
