#include <prof/activity/json_cursor.hpp>

namespace prof::activity {

JsonCursor::JsonCursor(std::string_view text) : text_(text) {
  if (text_.starts_with("\xef\xbb\xbf")) pos_ = 3;
}

void JsonCursor::skip_space() {
  while (pos_ < text_.size() &&
         (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
    ++pos_;
}

std::size_t JsonCursor::offset() {
  skip_space();
  return pos_;
}

char JsonCursor::peek() {
  skip_space();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

std::string JsonCursor::found() {
  skip_space();
  if (pos_ >= text_.size()) return "end of input";
  const auto c = static_cast<unsigned char>(text_[pos_]);
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  static const char hex[] = "0123456789abcdef";
  return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
}

void JsonCursor::throw_at(std::size_t at, const std::string &message) {
  throw JsonSyntaxError(position_of(text_, at), message, at);
}

void JsonCursor::fail(const std::string &what) {
  const std::string message = "expected " + what + ", found " + found();
  throw_at(pos_, message);
}

void JsonCursor::enter_array(std::string_view element) {
  if (peek() != '[') fail("an array");
  ++pos_;
  levels_.push_back({true, true, std::string(element)});
}

bool JsonCursor::next_element() {
  if (levels_.empty() || !levels_.back().array) fail("to be inside an array");
  Level &level = levels_.back();
  const char c = peek();
  if (c == ']' && level.first) {
    ++pos_;
    levels_.pop_back();
    return false;
  }
  if (!level.first) {
    if (c == ']') {
      ++pos_;
      levels_.pop_back();
      return false;
    }
    if (c != ',') fail("',' or ']' after " + level.name);
    ++pos_;
    skip_space();
  }
  level.first = false;
  return true;
}

void JsonCursor::enter_object(std::string_view object) {
  if (peek() != '{') fail("an object");
  ++pos_;
  levels_.push_back({false, true, std::string(object)});
}

std::optional<std::string> JsonCursor::next_member() {
  if (levels_.empty() || levels_.back().array) fail("to be inside an object");
  Level &level = levels_.back();
  char c = peek();
  if (c == '}' && level.first) {
    ++pos_;
    levels_.pop_back();
    return std::nullopt;
  }
  if (!level.first) {
    if (c == '}') {
      ++pos_;
      levels_.pop_back();
      return std::nullopt;
    }
    if (c != ',') fail("',' or '}' after a member of " + level.name);
    ++pos_;
    c = peek();
  }
  level.first = false;
  if (c != '"') fail("a string key in " + level.name);
  std::string key = value().string;
  if (peek() != ':') fail("':' after the key");
  ++pos_;
  skip_space();
  return key;
}

JsonValue JsonCursor::value(std::size_t max_depth) {
  skip_space();
  return parse_json_value_at(text_, pos_, max_depth);
}

void JsonCursor::expect_end(std::string_view what) {
  if (!at_end()) fail(std::string(what));
}

} // namespace prof::activity
