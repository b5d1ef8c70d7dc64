// Pieces of a filter string that remember where they came from, so errors
// can point at the part of the user's text that is wrong.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace prof::activity {

/// A part of a larger text and its byte offset in it.
struct TextPiece {
  std::string_view text;
  std::size_t offset = 0;
};

/// The piece without leading and trailing spaces and tabs.
TextPiece trim(TextPiece piece);

/// Splits at every `separator`; each part trimmed (possibly empty).
std::vector<TextPiece> split(TextPiece piece, char separator);

} // namespace prof::activity

namespace prof::activity {

/// `text` with control characters (newlines, tabs) shown as spaces, so a
/// message quoting it stays on one line.
std::string one_line(std::string_view text);

} // namespace prof::activity
