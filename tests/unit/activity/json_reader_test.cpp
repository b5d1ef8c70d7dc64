#include <prof/activity/json_reader.hpp>
#include <prof/activity/json_writer.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace prof::activity {
namespace {

using ::testing::HasSubstr;

/// "LINE:COL: message" for malformed `text`, "" when it parses.
std::string error_of(std::string_view text, std::size_t max_depth = 64) {
  try {
    parse_json(text, max_depth);
  } catch (const JsonSyntaxError &e) {
    return std::to_string(e.position.line) + ":" + std::to_string(e.position.column) + ": " +
           e.what();
  }
  return "";
}

TEST(JsonReader, Values) {
  const JsonValue v = parse_json(R"( {"a": [true, false, null, -0, 1.5e3, 0.25, 12],
                             "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "o": {}} )");
  ASSERT_EQ(v.type, JsonType::Object);
  ASSERT_EQ(v.object.size(), 3u);
  const JsonValue *a = v.find("a");
  ASSERT_TRUE(a && a->type == JsonType::Array && a->array.size() == 7u);
  EXPECT_TRUE(a->array[0].boolean);
  EXPECT_EQ(a->array[1].type, JsonType::Bool);
  EXPECT_EQ(a->array[2].type, JsonType::Null);
  EXPECT_EQ(a->array[4].number, 1500.0);
  EXPECT_EQ(a->array[5].number, 0.25);
  EXPECT_EQ(a->array[6].number, 12.0);
  EXPECT_EQ(v.find("s")->string, "x\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(v.find("o")->type, JsonType::Object);
  EXPECT_EQ(v.find("missing"), nullptr);
  EXPECT_EQ(a->array[1].offset, 14u);
}

TEST(JsonReader, ErrorsSayLineAndColumn) {
  EXPECT_EQ(error_of("[1,]"), "1:4: expected a value, found ']'");
  EXPECT_EQ(error_of("01"), "1:2: expected end of input after the JSON value, found '1'");
  EXPECT_EQ(error_of("\"abc"), "1:5: expected '\"' to close the string, found end of input");
  EXPECT_THAT(error_of("\"\\x\""), HasSubstr("1:3: expected an escape"));
  EXPECT_THAT(error_of("\"\\u12g4\""),
              HasSubstr("1:6: expected 4 hex digits after \\u, found 'g'"));
  EXPECT_THAT(error_of("\"\\ud800\""), HasSubstr("expected \\u and a low surrogate"));
  EXPECT_THAT(error_of("\"\\ud800\\u0041\""), HasSubstr("expected a low surrogate"));
  EXPECT_THAT(error_of("\"\\udc00\""), HasSubstr("1:2: expected a high surrogate"));
  EXPECT_EQ(error_of("{\"a\": 1, \"a\": 2}"),
            "1:10: expected each key once in an object, found \"a\" again");
  EXPECT_THAT(error_of("1e999"), HasSubstr("1:1: expected a number a double can hold"));
  EXPECT_THAT(error_of("\"a\nb\""),
              HasSubstr("1:3: expected '\"' or an escaped control character"));
  EXPECT_EQ(error_of("nul"), "1:1: expected a value, found 'n'");
  EXPECT_EQ(error_of("-"), "1:2: expected a digit, found end of input");
  EXPECT_EQ(error_of("1."), "1:3: expected a digit, found end of input");
  EXPECT_EQ(error_of("{\"a\" 1}"), "1:6: expected ':' after the key, found '1'");
  EXPECT_EQ(error_of("{\"a\": 1 \"b\": 2}"),
            "1:9: expected ',' or '}' after an object member, found '\"'");
  EXPECT_EQ(error_of("[1 2]"), "1:4: expected ',' or ']' after an array element, found '2'");
  EXPECT_EQ(error_of("{1: 2}"), "1:2: expected a string key, found '1'");
  EXPECT_EQ(error_of("\x01"), "1:1: expected a value, found byte 0x01");
  EXPECT_EQ(error_of("[\n  \"\xc3\xa9\", x]"), "2:8: expected a value, found 'x'");
}

TEST(JsonReader, ValuesOneAtATimeKeepTheDocumentsOffsets) {
  const std::string_view text = R"([ {"a": 1}, "x" ,  2.5 ])";
  std::size_t at = 1;
  const JsonValue first = parse_json_value_at(text, at);
  EXPECT_EQ(first.offset, 2u);
  EXPECT_EQ(first.find("a")->offset, 8u);
  EXPECT_EQ(at, 10u);
  at += 1; // ','
  EXPECT_EQ(parse_json_value_at(text, at).string, "x");
  EXPECT_EQ(at, 15u);
  at += 2;
  EXPECT_EQ(parse_json_value_at(text, at).number, 2.5);
  // An error carries its byte offset in the whole text.
  std::size_t cut = 1;
  try {
    parse_json_value_at(text.substr(0, 8), cut);
    ADD_FAILURE() << "a cut value parsed";
  } catch (const JsonSyntaxError &e) {
    EXPECT_EQ(e.offset, 8u);
    EXPECT_EQ(e.position.column, 9u);
    EXPECT_STREQ(e.what(), "expected a value, found end of input");
  }
}

TEST(JsonReader, NestingIsBounded) {
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_EQ(error_of(ok), "");
  const std::string deep = std::string(65, '[') + std::string(65, ']');
  EXPECT_EQ(error_of(deep), "1:65: expected at most 64 nested arrays and objects");
  EXPECT_EQ(error_of("{\"a\": {\"b\": []}}", 2),
            "1:13: expected at most 2 nested arrays and objects");
}

TEST(JsonWriter, QuotesAndIndents) {
  EXPECT_EQ(quote_json("a\"b\\c\n\x1f/\xc3\xa9"), "\"a\\\"b\\\\c\\n\\u001f/\xc3\xa9\"");
  JsonWriter w;
  w.begin_object();
  w.key("a");
  w.begin_array();
  w.number(1);
  w.value(true);
  w.value("x");
  w.end_array();
  w.key("e");
  w.begin_array();
  w.end_array();
  w.end_object();
  EXPECT_EQ(w.finish(), "{\n  \"a\": [\n    1,\n    true,\n    \"x\"\n  ],\n  \"e\": []\n}\n");
}

} // namespace
} // namespace prof::activity
