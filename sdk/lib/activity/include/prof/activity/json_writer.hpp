// Writes pretty-printed JSON (2-space indentation, one member per line) in
// the order it is given.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prof::activity {

/// `text` as a JSON string literal (prof::append_json_string: quotes,
/// backslashes and control characters escaped, invalid UTF-8 as \ufffd).
std::string quote_json(std::string_view text);

/// Builds a document; call key() before each value inside an object.
class JsonWriter {
public:
  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  void key(std::string_view name);
  void value(std::string_view text);
  void value(const char *text) { value(std::string_view(text)); }
  void value(bool flag);
  void number(uint64_t value);

  /// The document, ending in a newline.
  std::string finish();

private:
  void open(char bracket);
  void close(char bracket);
  void before_value();
  void indent();

  std::string out_;
  std::vector<bool> empty_; ///< per open container: nothing written into it yet
  bool after_key_ = false;
};

} // namespace prof::activity
