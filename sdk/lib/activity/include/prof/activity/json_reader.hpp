// A small, strict JSON reader (RFC 8259) for the device-tree files users
// edit: values keep where they start, errors say line and column, nesting is
// bounded, and no input (truncated, garbage, huge) can crash it.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace prof::activity {

enum class JsonType { Null, Bool, Number, String, Array, Object };

struct JsonMember;

/// One parsed value.
struct JsonValue {
  JsonType type = JsonType::Null;
  bool boolean = false;
  double number = 0;
  std::string string;             ///< String: the decoded text (UTF-8)
  std::vector<JsonValue> array;   ///< Array: the elements
  std::vector<JsonMember> object; ///< Object: members in input order, keys unique
  std::size_t offset = 0;         ///< byte offset of the value in the input

  /// The member `key` of an object, nullptr when absent or not an object.
  const JsonValue *find(std::string_view key) const;
};

struct JsonMember {
  std::string key;
  JsonValue value;
};

/// A 1-based line and column (column counts characters, not bytes).
struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
};

/// Where byte `offset` of `text` lies.
TextPosition position_of(std::string_view text, std::size_t offset);

/// Malformed input; what() is "expected ..." without the position.
class JsonSyntaxError : public std::runtime_error {
public:
  JsonSyntaxError(TextPosition where, const std::string &message, std::size_t at = 0)
      : std::runtime_error(message), position(where), offset(at) {}
  TextPosition position;
  std::size_t offset = 0; ///< the byte offset of the problem in the input
};

/// "object", "array", "string", "number", "true or false", "null".
std::string_view json_type_name(JsonType type);

/// Parses one JSON document (surrounding whitespace and a leading UTF-8 byte
/// order mark allowed). Arrays and
/// objects may nest `max_depth` deep. Throws JsonSyntaxError.
JsonValue parse_json(std::string_view text, std::size_t max_depth = 64);

/// Parses the one JSON value that starts at byte `offset` of `text` (after
/// whitespace) and moves `offset` just past it: for reading a large document
/// piece by piece (one element of a long array at a time). Offsets, the
/// values' and the errors', count from the start of `text`. Throws
/// JsonSyntaxError.
JsonValue parse_json_value_at(std::string_view text, std::size_t &offset,
                              std::size_t max_depth = 64);

} // namespace prof::activity
