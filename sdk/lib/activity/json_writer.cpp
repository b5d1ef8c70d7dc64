#include <prof/activity/json_writer.hpp>

#include <prof/json_text.hpp>

namespace prof::activity {

std::string quote_json(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

void JsonWriter::indent() { out_.append(2 * empty_.size(), ' '); }

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (empty_.empty()) return;
  out_ += empty_.back() ? "\n" : ",\n";
  empty_.back() = false;
  indent();
}

void JsonWriter::open(char bracket) {
  before_value();
  out_ += bracket;
  empty_.push_back(true);
}

void JsonWriter::close(char bracket) {
  const bool was_empty = empty_.back();
  empty_.pop_back();
  if (!was_empty) {
    out_ += '\n';
    indent();
  }
  out_ += bracket;
}

void JsonWriter::key(std::string_view name) {
  before_value();
  out_ += quote_json(name);
  out_ += ": ";
  after_key_ = true;
}

void JsonWriter::value(std::string_view text) {
  before_value();
  out_ += quote_json(text);
}

void JsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
}

void JsonWriter::number(uint64_t value) {
  before_value();
  out_ += std::to_string(value);
}

std::string JsonWriter::finish() {
  std::string out = std::move(out_);
  out_.clear();
  empty_.clear();
  after_key_ = false;
  return out + "\n";
}

} // namespace prof::activity
