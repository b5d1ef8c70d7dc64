// Walks the outer levels of a large JSON document one piece at a time: an
// array element by element, an object member by member, each element or
// member value parsed whole with parse_json_value_at. A trace of millions of
// events costs one event at a time, not a tree of the whole document.
// Errors are JsonSyntaxError: "expected ..., found ..." with the byte offset.
#pragma once

#include <prof/activity/json_reader.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::activity {

class JsonCursor {
public:
  /// A cursor at the start of `text` (past a UTF-8 byte order mark).
  explicit JsonCursor(std::string_view text);

  /// The byte offset of the cursor, after white space.
  std::size_t offset();
  /// The byte at the cursor after white space, '\0' at the end.
  char peek();
  bool at_end() { return peek() == '\0' && offset() >= text_.size(); }
  /// What is at the cursor, for an error: "end of input", "'x'", "byte 0x00".
  std::string found();
  /// Throws "expected <what>, found <found()>" at the cursor.
  [[noreturn]] void fail(const std::string &what);

  /// Enters the array at the cursor; `element` names its elements in errors
  /// ("an event": "expected ',' or ']' after an event").
  void enter_array(std::string_view element);
  /// Moves to the next element of the innermost array entered: true with the
  /// cursor at it, false past the array's ']'.
  bool next_element();
  /// Enters the object at the cursor; `object` names it in errors ("the
  /// trace object": "expected a string key in the trace object").
  void enter_object(std::string_view object);
  /// Reads the next member's key of the innermost object entered: the key,
  /// with the cursor at its value; nullopt past the object's '}'.
  std::optional<std::string> next_member();
  /// Parses the value at the cursor whole and moves past it.
  JsonValue value(std::size_t max_depth = 64);
  /// Throws "expected <what>" unless only white space is left.
  void expect_end(std::string_view what);

private:
  struct Level {
    bool array = false;
    bool first = true;
    std::string name; ///< the element's or the object's name in errors
  };
  void skip_space();
  [[noreturn]] void throw_at(std::size_t at, const std::string &message);

  std::string_view text_;
  std::size_t pos_ = 0;
  std::vector<Level> levels_;
};

} // namespace prof::activity
