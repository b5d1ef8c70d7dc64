#include "read/trace_reader.hpp"

#include "read/event_reader.hpp"
#include "read/trace_read_error.hpp"
#include "read/trace_values.hpp"

#include <prof/activity/json_cursor.hpp>
#include <prof/kineto_format.hpp>

#include <algorithm>

namespace prof::kineto {

namespace kf = kineto_format;

using activity::JsonType;
using activity::JsonValue;

namespace {

/// Walks the document's outer levels with the SDK's JSON cursor and parses
/// each event (and each other member) whole.
class TraceWalker {
public:
  TraceWalker(std::string_view text, ImportedTrace &trace)
      : text_(text), trace_(trace), events_(trace, text), cursor_(text) {}

  void walk() {
    constexpr const char *kTrace =
        "a PyTorch trace (a JSON object with \"traceEvents\", or an array of events)";
    if (cursor_.at_end())
      throw TraceReadError(std::string("expected ") + kTrace + ", found an empty file",
                           cursor_.offset());
    if (cursor_.peek() == '[') {
      trace_.form = TraceForm::Legacy;
      event_array();
    } else if (cursor_.peek() == '{') {
      trace_.form = TraceForm::Kineto;
      trace_object();
    } else {
      cursor_.fail(kTrace);
    }
    cursor_.expect_end("the end of the trace after its JSON value");
  }

private:
  void event_array() {
    cursor_.enter_array("an event");
    while (cursor_.next_element())
      events_.add(cursor_.value());
  }

  void trace_object() {
    const size_t start = cursor_.offset();
    bool has_events = false;
    cursor_.enter_object("the trace object");
    while (const auto key = cursor_.next_member()) {
      if (*key == kf::kTraceEvents) {
        if (cursor_.peek() != '[')
          cursor_.fail(std::string("an array for \"") + kf::kTraceEvents + "\"");
        event_array();
        has_events = true;
      } else {
        member(*key, cursor_.value());
      }
    }
    if (!has_events) throw TraceReadError("expected \"traceEvents\" in the trace object", start);
  }

  void member(const std::string &key, const JsonValue &value) {
    if (key == kf::kBaseTimeNanoseconds) {
      if (value.type != JsonType::Number)
        throw TraceReadError("expected a number for \"baseTimeNanoseconds\"", value.offset);
      constexpr int64_t kLimit = int64_t{1} << 61; // as event times (kineto_events.cpp)
      trace_.base_time_ns = std::clamp<int64_t>(exact_integer(text_, value), -kLimit, kLimit);
    } else if (key == kf::kDistributedInfo) {
      if (value.type != JsonType::Object)
        throw TraceReadError("expected an object for \"distributedInfo\"", value.offset);
      for (const char *field : {kf::kRank, kf::kWorldSize}) {
        const JsonValue *v = value.find(field);
        if (v == nullptr) continue;
        if (v->type != JsonType::Number)
          throw TraceReadError(std::string("expected a number for \"") + field + "\"", v->offset);
        (field[0] == 'r' ? trace_.distributed.rank : trace_.distributed.world_size) =
            exact_integer(text_, *v);
      }
      if (const JsonValue *v = value.find(kf::kBackend); v && v->type == JsonType::String)
        trace_.distributed.backend = v->string;
    }
  }

  std::string_view text_;
  ImportedTrace &trace_;
  KinetoEventReader events_;
  activity::JsonCursor cursor_;
};

} // namespace

void read_pytorch_trace(std::string_view text, ImportedTrace &trace) {
  try {
    TraceWalker(text, trace).walk();
  } catch (const activity::JsonSyntaxError &e) {
    throw TraceReadError(e.what(), e.offset);
  }
}

} // namespace prof::kineto
