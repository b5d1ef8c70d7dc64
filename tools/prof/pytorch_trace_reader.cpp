#include "tools/prof/pytorch_trace_reader.hpp"

#include "tools/prof/kineto_events.hpp"
#include "tools/prof/trace_import_error.hpp"
#include "tools/prof/trace_values.hpp"

#include <prof/activity/json_reader.hpp>

#include <algorithm>

namespace prof::tool {

using activity::JsonType;
using activity::JsonValue;

namespace {

/// Walks the document's outer levels by hand and parses each event (and
/// each other member) with the JSON reader.
class TraceWalker {
public:
  TraceWalker(std::string_view text, ImportedTrace &trace)
      : text_(text), trace_(trace), events_(trace, text) {}

  void walk() {
    if (text_.starts_with("\xef\xbb\xbf")) pos_ = 3;
    skip_space();
    if (at_end())
      fail("expected a PyTorch trace (a JSON object with \"traceEvents\", or an array of "
           "events), found an empty file");
    if (peek() == '[') {
      trace_.form = TraceForm::Legacy;
      event_array();
    } else if (peek() == '{') {
      trace_.form = TraceForm::Kineto;
      trace_object();
    } else {
      fail("expected a PyTorch trace (a JSON object with \"traceEvents\", or an array of "
           "events), found " +
           found());
    }
    skip_space();
    if (!at_end()) fail("expected the end of the trace after its JSON value, found " + found());
  }

private:
  [[noreturn]] void fail(const std::string &expected) const {
    throw TraceImportError(expected, pos_);
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
      ++pos_;
  }
  std::string found() const {
    if (at_end()) return "end of input";
    const auto c = static_cast<unsigned char>(peek());
    if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    static const char hex[] = "0123456789abcdef";
    return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
  }

  /// The JSON value at the current position, parsed whole.
  JsonValue value() {
    try {
      return activity::parse_json_value_at(text_, pos_);
    } catch (const activity::JsonSyntaxError &e) {
      throw TraceImportError(e.what(), e.offset);
    }
  }

  void event_array() {
    ++pos_; // '['
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_space();
      events_.add(value());
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return;
      }
      fail("expected ',' or ']' after an event, found " + found());
    }
  }

  void trace_object() {
    const size_t start = pos_;
    bool has_events = false;
    ++pos_; // '{'
    skip_space();
    if (peek() == '}') {
      ++pos_;
    } else {
      for (;;) {
        skip_space();
        if (peek() != '"') fail("expected a string key in the trace object, found " + found());
        const std::string key = value().string;
        skip_space();
        if (peek() != ':') fail("expected ':' after the key, found " + found());
        ++pos_;
        skip_space();
        if (key == "traceEvents") {
          if (peek() != '[') fail("expected an array for \"traceEvents\", found " + found());
          event_array();
          has_events = true;
        } else {
          member(key, value());
        }
        skip_space();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        if (peek() == '}') {
          ++pos_;
          break;
        }
        fail("expected ',' or '}' after a member of the trace object, found " + found());
      }
    }
    if (!has_events) throw TraceImportError("expected \"traceEvents\" in the trace object", start);
  }

  void member(const std::string &key, const JsonValue &value) {
    if (key == "baseTimeNanoseconds") {
      if (value.type != JsonType::Number)
        throw TraceImportError("expected a number for \"baseTimeNanoseconds\"", value.offset);
      constexpr int64_t kLimit = int64_t{1} << 61; // as event times (kineto_events.cpp)
      trace_.base_time_ns = std::clamp<int64_t>(exact_integer(text_, value), -kLimit, kLimit);
    } else if (key == "distributedInfo") {
      if (value.type != JsonType::Object)
        throw TraceImportError("expected an object for \"distributedInfo\"", value.offset);
      for (const char *field : {"rank", "world_size"}) {
        const JsonValue *v = value.find(field);
        if (v == nullptr) continue;
        if (v->type != JsonType::Number)
          throw TraceImportError(std::string("expected a number for \"") + field + "\"", v->offset);
        (field[0] == 'r' ? trace_.distributed.rank : trace_.distributed.world_size) =
            exact_integer(text_, *v);
      }
      if (const JsonValue *v = value.find("backend"); v && v->type == JsonType::String)
        trace_.distributed.backend = v->string;
    }
  }

  std::string_view text_;
  ImportedTrace &trace_;
  KinetoEventReader events_;
  size_t pos_ = 0;
};

} // namespace

void read_pytorch_trace(std::string_view text, ImportedTrace &trace) {
  TraceWalker(text, trace).walk();
}

} // namespace prof::tool
