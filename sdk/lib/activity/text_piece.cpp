#include <prof/activity/text_piece.hpp>

namespace prof::activity {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

} // namespace

TextPiece trim(TextPiece piece) {
  std::string_view t = piece.text;
  std::size_t begin = 0;
  while (begin < t.size() && is_blank(t[begin]))
    ++begin;
  std::size_t end = t.size();
  while (end > begin && is_blank(t[end - 1]))
    --end;
  return {t.substr(begin, end - begin), piece.offset + begin};
}

std::vector<TextPiece> split(TextPiece piece, char separator) {
  std::vector<TextPiece> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = piece.text.find(separator, start);
    const std::size_t end = at == std::string_view::npos ? piece.text.size() : at;
    parts.push_back(trim({piece.text.substr(start, end - start), piece.offset + start}));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

} // namespace prof::activity

namespace prof::activity {

std::string one_line(std::string_view text) {
  std::string out(text);
  for (char &c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

} // namespace prof::activity
