#include <prof/activity/json_reader.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace prof::activity {
namespace {

class Reader {
public:
  Reader(std::string_view text, std::size_t max_depth) : text_(text), max_depth_(max_depth) {}

  JsonValue document() {
    if (text_.substr(0, 3) == "\xef\xbb\xbf") // a UTF-8 byte order mark, as some editors write
      pos_ = 3;
    skip_space();
    JsonValue value = parse_value(0);
    skip_space();
    if (pos_ < text_.size())
      fail(pos_, "expected end of input after the JSON value, found " + found());
    return value;
  }

  /// The value at `offset` (after whitespace); `offset` moves past it.
  JsonValue value_at(std::size_t &offset) {
    pos_ = offset;
    skip_space();
    JsonValue value = parse_value(0);
    offset = pos_;
    return value;
  }

private:
  [[noreturn]] void fail(std::size_t offset, const std::string &message) const {
    throw JsonSyntaxError(position_of(text_, offset), message, offset);
  }

  /// What is at the current position, for messages.
  std::string found() const {
    if (pos_ >= text_.size()) return "end of input";
    const unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    static const char hex[] = "0123456789abcdef";
    return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
      ++pos_;
  }

  JsonValue parse_value(std::size_t depth) {
    JsonValue value;
    value.offset = pos_;
    switch (peek()) {
    case '{':
      enter(depth);
      parse_object(value, depth + 1);
      break;
    case '[':
      enter(depth);
      parse_array(value, depth + 1);
      break;
    case '"':
      value.type = JsonType::String;
      value.string = parse_string();
      break;
    case 't':
      literal("true");
      value.type = JsonType::Bool;
      value.boolean = true;
      break;
    case 'f':
      literal("false");
      value.type = JsonType::Bool;
      break;
    case 'n':
      literal("null");
      break;
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9')) {
        value.type = JsonType::Number;
        value.number = parse_number();
        break;
      }
      fail(pos_, "expected a value, found " + found());
    }
    return value;
  }

  void enter(std::size_t depth) {
    if (depth >= max_depth_)
      fail(pos_, "expected at most " + std::to_string(max_depth_) + " nested arrays and objects");
  }

  void literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) fail(pos_, "expected a value, found " + found());
    pos_ += word.size();
  }

  void parse_object(JsonValue &value, std::size_t depth) {
    value.type = JsonType::Object;
    std::vector<std::size_t> key_offsets;
    ++pos_; // '{'
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_space();
      if (peek() != '"') fail(pos_, "expected a string key, found " + found());
      key_offsets.push_back(pos_);
      JsonMember member;
      member.key = parse_string();
      skip_space();
      if (peek() != ':') fail(pos_, "expected ':' after the key, found " + found());
      ++pos_;
      skip_space();
      member.value = parse_value(depth);
      value.object.push_back(std::move(member));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        break;
      }
      fail(pos_, "expected ',' or '}' after an object member, found " + found());
    }
    check_unique_keys(value, key_offsets);
  }

  void check_unique_keys(const JsonValue &value,
                         const std::vector<std::size_t> &key_offsets) const {
    std::vector<std::size_t> order(value.object.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return value.object[a].key < value.object[b].key;
    });
    std::size_t first_dup = order.size();
    for (std::size_t i = 1; i < order.size(); ++i)
      if (value.object[order[i]].key == value.object[order[i - 1]].key)
        first_dup = std::min(first_dup, order[i]);
    if (first_dup < order.size())
      fail(key_offsets[first_dup], "expected each key once in an object, found \"" +
                                       value.object[first_dup].key + "\" again");
  }

  void parse_array(JsonValue &value, std::size_t depth) {
    value.type = JsonType::Array;
    ++pos_; // '['
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_space();
      value.array.push_back(parse_value(depth));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return;
      }
      fail(pos_, "expected ',' or ']' after an array element, found " + found());
    }
  }

  unsigned hex4() {
    unsigned code = 0;
    for (int i = 0; i < 4; ++i, ++pos_) {
      const char c = peek();
      unsigned digit;
      if (c >= '0' && c <= '9')
        digit = static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        digit = static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        digit = static_cast<unsigned>(c - 'A' + 10);
      else
        fail(pos_, "expected 4 hex digits after \\u, found " + found());
      code = code * 16 + digit;
    }
    return code;
  }

  static void append_utf8(std::string &out, uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xc0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xe0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    }
  }

  std::string parse_string() {
    std::string out;
    ++pos_; // '"'
    for (;;) {
      if (at_end()) fail(pos_, "expected '\"' to close the string, found end of input");
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        fail(pos_,
             "expected '\"' or an escaped control character (\\n, \\t, ...), found " + found());
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      ++pos_;
      const char e = peek();
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        ++pos_;
        const std::size_t start = pos_ - 2;
        uint32_t code = hex4();
        if (code >= 0xdc00 && code <= 0xdfff)
          fail(start, "expected a high surrogate before a low one (\\u" +
                          std::string(text_.substr(start + 2, 4)) + ")");
        if (code >= 0xd800 && code <= 0xdbff) {
          if (text_.substr(pos_, 2) != "\\u")
            fail(pos_, "expected \\u and a low surrogate after a high one, found " + found());
          pos_ += 2;
          const uint32_t low = hex4();
          if (low < 0xdc00 || low > 0xdfff)
            fail(pos_ - 6, "expected a low surrogate (\\udc00 ~ \\udfff) after a high one");
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        }
        append_utf8(out, code);
        continue; // hex4 moved past the digits
      }
      default:
        fail(pos_,
             "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX), found " + found());
      }
      ++pos_;
    }
  }

  double parse_number() {
    const std::size_t start = pos_;
    auto digits = [&] {
      if (!(peek() >= '0' && peek() <= '9')) fail(pos_, "expected a digit, found " + found());
      while (peek() >= '0' && peek() <= '9')
        ++pos_;
    };
    if (peek() == '-') ++pos_;
    if (peek() == '0')
      ++pos_;
    else
      digits();
    if (peek() == '.') {
      ++pos_;
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      digits();
    }
    double number = 0;
    const char *first = text_.data() + start;
    const auto [end, error] = std::from_chars(first, text_.data() + pos_, number);
    if (error != std::errc() || end != text_.data() + pos_)
      fail(start, "expected a number a double can hold, found " +
                      std::string(text_.substr(start, std::min<std::size_t>(pos_ - start, 32))));
    return number;
  }

  std::string_view text_;
  std::size_t max_depth_;
  std::size_t pos_ = 0;
};

} // namespace

const JsonValue *JsonValue::find(std::string_view key) const {
  for (const JsonMember &member : object)
    if (member.key == key) return &member.value;
  return nullptr;
}

TextPosition position_of(std::string_view text, std::size_t offset) {
  TextPosition where;
  offset = std::min(offset, text.size());
  for (std::size_t i = 0; i < offset; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++where.line;
      where.column = 1;
    } else if ((c & 0xc0) != 0x80) {
      ++where.column;
    }
  }
  return where;
}

std::string_view json_type_name(JsonType type) {
  switch (type) {
  case JsonType::Null:
    return "null";
  case JsonType::Bool:
    return "true or false";
  case JsonType::Number:
    return "a number";
  case JsonType::String:
    return "a string";
  case JsonType::Array:
    return "an array";
  case JsonType::Object:
    return "an object";
  }
  return "?";
}

JsonValue parse_json(std::string_view text, std::size_t max_depth) {
  return Reader(text, max_depth).document();
}

JsonValue parse_json_value_at(std::string_view text, std::size_t &offset, std::size_t max_depth) {
  return Reader(text, max_depth).value_at(offset);
}

} // namespace prof::activity
