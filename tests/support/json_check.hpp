// A small JSON reader for tests: parses the whole text or says where it
// failed, so a test can check both that output is JSON and what it holds.
#pragma once

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace prof::testing {

struct Json {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<Json> items;                           ///< Array
  std::vector<std::pair<std::string, Json>> members; ///< Object, in order
  const Json &operator[](const std::string &key) const {
    for (const auto &[name, value] : members)
      if (name == key) return value;
    throw std::runtime_error("no member '" + key + "'");
  }
  bool has(const std::string &key) const {
    for (const auto &[name, value] : members)
      if (name == key) return true;
    return false;
  }
};

class JsonParser {
public:
  /// Throws std::runtime_error naming the offset of the first error.
  static Json parse(const std::string &text) {
    JsonParser p(text);
    Json value = p.value();
    p.blanks();
    if (p.at_ != text.size()) p.fail("text after the value");
    return value;
  }

private:
  explicit JsonParser(const std::string &text) : text_(text) {}
  [[noreturn]] void fail(const std::string &what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(at_));
  }
  void blanks() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_])))
      ++at_;
  }
  bool take(char c) {
    blanks();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  bool word(const char *w) {
    const std::string s(w);
    if (text_.compare(at_, s.size(), s) != 0) return false;
    at_ += s.size();
    return true;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (at_ < text_.size() && text_[at_] != '"') {
      char c = text_[at_++];
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c == '\\') {
        if (at_ >= text_.size()) fail("cut escape");
        c = text_[at_++];
        switch (c) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u':
          if (at_ + 4 > text_.size()) fail("cut \\u escape");
          out += static_cast<char>(std::strtol(text_.substr(at_, 4).c_str(), nullptr, 16));
          at_ += 4;
          break;
        case '"':
        case '\\':
        case '/':
          out += c;
          break;
        default:
          fail("bad escape");
        }
      } else {
        out += c;
      }
    }
    if (at_ >= text_.size()) fail("unterminated string");
    ++at_;
    return out;
  }
  Json value() {
    blanks();
    if (at_ >= text_.size()) fail("expected a value");
    Json v;
    const char c = text_[at_];
    if (c == '{') {
      ++at_;
      v.kind = Json::Kind::Object;
      if (take('}')) return v;
      do {
        blanks();
        std::string key = string();
        expect(':');
        v.members.emplace_back(std::move(key), value());
      } while (take(','));
      expect('}');
    } else if (c == '[') {
      ++at_;
      v.kind = Json::Kind::Array;
      if (take(']')) return v;
      do
        v.items.push_back(value());
      while (take(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Json::Kind::String;
      v.text = string();
    } else if (word("null")) {
    } else if (word("true") || word("false")) {
      v.kind = Json::Kind::Bool;
      v.boolean = text_[at_ - 1] == 'e' && text_[at_ - 2] == 'u';
    } else {
      const char *begin = text_.c_str() + at_;
      char *end = nullptr;
      v.kind = Json::Kind::Number;
      v.number = std::strtod(begin, &end);
      if (end == begin || !(c == '-' || std::isdigit(static_cast<unsigned char>(c))))
        fail("expected a value");
      at_ += static_cast<size_t>(end - begin);
    }
    return v;
  }

  const std::string &text_;
  size_t at_ = 0;
};

} // namespace prof::testing
