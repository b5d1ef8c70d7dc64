#include <prof/activity/json_writer.hpp>

#include <prof/json_text.hpp>

namespace prof::activity::json {

std::string quote(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
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
