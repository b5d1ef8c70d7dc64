#include "core/activity/json_writer.hpp"

namespace prof::activity::json {

std::string quote(std::string_view text) {
  static const char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
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
      if (u < 0x20) {
        out += "\\u00";
        out += hex[u >> 4];
        out += hex[u & 15];
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

void Writer::indent() { out_.append(2 * empty_.size(), ' '); }

void Writer::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (empty_.empty()) return;
  out_ += empty_.back() ? "\n" : ",\n";
  empty_.back() = false;
  indent();
}

void Writer::open(char bracket) {
  before_value();
  out_ += bracket;
  empty_.push_back(true);
}

void Writer::close(char bracket) {
  const bool was_empty = empty_.back();
  empty_.pop_back();
  if (!was_empty) {
    out_ += '\n';
    indent();
  }
  out_ += bracket;
}

void Writer::key(std::string_view name) {
  before_value();
  out_ += quote(name);
  out_ += ": ";
  after_key_ = true;
}

void Writer::value(std::string_view text) {
  before_value();
  out_ += quote(text);
}

void Writer::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
}

void Writer::number(uint64_t value) {
  before_value();
  out_ += std::to_string(value);
}

std::string Writer::finish() {
  std::string out = std::move(out_);
  out_.clear();
  empty_.clear();
  after_key_ = false;
  return out + "\n";
}

} // namespace prof::activity::json
