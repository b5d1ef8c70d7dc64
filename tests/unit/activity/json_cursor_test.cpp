// The JSON cursor: arrays element by element, objects member by member,
// and errors that say what was expected, what was found and where.
#include <prof/activity/json_cursor.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace prof::activity {
namespace {

/// The message and offset `walk` fails with on `text` ("" when it does not).
template <class Walk> std::pair<std::string, size_t> failure(std::string_view text, Walk walk) {
  try {
    JsonCursor cursor(text);
    walk(cursor);
  } catch (const JsonSyntaxError &e) {
    return {e.what(), e.offset};
  }
  return {"", 0};
}

TEST(JsonCursor, WalksAnArrayElementByElement) {
  JsonCursor cursor("\xef\xbb\xbf [ 1, {\"a\": [2]} ,\"x\"] ");
  cursor.enter_array("an element");
  std::vector<JsonType> types;
  std::vector<size_t> offsets;
  while (cursor.next_element()) {
    const JsonValue value = cursor.value();
    types.push_back(value.type);
    offsets.push_back(value.offset);
  }
  EXPECT_EQ(types, (std::vector<JsonType>{JsonType::Number, JsonType::Object, JsonType::String}));
  EXPECT_EQ(offsets, (std::vector<size_t>{6, 9, 21}));
  EXPECT_NO_THROW(cursor.expect_end("the end"));
}

TEST(JsonCursor, WalksAnObjectMemberByMemberAndNests) {
  JsonCursor cursor(R"({"head": 1, "items": [true, null], "empty": [], "none": {}})");
  cursor.enter_object("the document");
  std::vector<std::string> keys;
  int items = 0;
  while (const auto key = cursor.next_member()) {
    keys.push_back(*key);
    if (*key == "items" || *key == "empty") {
      cursor.enter_array("an item");
      while (cursor.next_element()) {
        cursor.value();
        ++items;
      }
    } else {
      cursor.value();
    }
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"head", "items", "empty", "none"}));
  EXPECT_EQ(items, 2);
  EXPECT_TRUE(cursor.at_end());
}

TEST(JsonCursor, ErrorsNameWhatWasExpectedAndWhere) {
  const auto each = [](JsonCursor &c) {
    c.enter_array("an event");
    while (c.next_element())
      c.value();
  };
  EXPECT_EQ(failure("[1 2]", each),
            (std::pair<std::string, size_t>{"expected ',' or ']' after an event, found '2'", 3}));
  EXPECT_EQ(failure("[1,", each).first, "expected a value, found end of input");
  EXPECT_EQ(failure("{}", each).first, "expected an array, found '{'");
  const auto members = [](JsonCursor &c) {
    c.enter_object("the trace object");
    while (c.next_member())
      c.value();
  };
  EXPECT_EQ(failure(R"({"a": 1 "b": 2})", members),
            (std::pair<std::string, size_t>{
                "expected ',' or '}' after a member of the trace object, found '\"'", 8}));
  EXPECT_EQ(failure(R"({1: 2})", members).first,
            "expected a string key in the trace object, found '1'");
  EXPECT_EQ(failure(R"({"a" 2})", members).first, "expected ':' after the key, found '2'");
  EXPECT_EQ(failure("[] x",
                    [&](JsonCursor &c) {
                      each(c);
                      c.expect_end("the end of the document");
                    }),
            (std::pair<std::string, size_t>{"expected the end of the document, found 'x'", 3}));
  EXPECT_EQ(failure(std::string("\x01", 1), each).first, "expected an array, found byte 0x01");
}

} // namespace
} // namespace prof::activity
