#include "chrome_json_exporter.hpp"

#include <prof/json_text.hpp>

namespace prof::chrome_json {

namespace {

const char *text_or_empty(const char *text) { return text != nullptr ? text : ""; }

} // namespace

ChromeJsonExporter::ChromeJsonExporter(ExportHost host)
    : host_(host), tracks_(host, [this](const std::string &record) { emit_record(record); }),
      file_(host, "chrome-json", kExtension) {}

bool ChromeJsonExporter::begin() {
  if (!file_.open(kOptions)) return false;
  out_ = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  return true;
}

bool ChromeJsonExporter::consume(const prof_event *events, size_t count) {
  if (file_.failed()) return false;
  for (size_t i = 0; i < count; ++i) {
    write(events[i]);
    if (!file_.write_if_full(out_)) return false;
  }
  events_ += count;
  return true;
}

bool ChromeJsonExporter::end() {
  if (file_.failed()) return false;
  tracks_.refresh_names();
  const prof_session_info &session = host_.session();
  out_ += "\n],\"otherData\":{\"base_ns\":";
  out_ += std::to_string(base_ns_);
  out_ += ",\"events\":";
  out_ += std::to_string(events_);
  out_ += ",\"skipped_events\":";
  out_ += std::to_string(skipped_);
  out_ += ",\"dropped_events\":";
  out_ += std::to_string(host_.dropped_events());
  out_ += ",\"session\":";
  append_json_string(out_, text_or_empty(session.session_name));
  out_ += ",\"command\":";
  append_json_string(out_, text_or_empty(session.command));
  out_ += ",\"hostname\":";
  append_json_string(out_, text_or_empty(session.hostname));
  out_ += "}}\n";
  if (!file_.write(out_) || !file_.commit()) return false;
  if (skipped_ > 0)
    host_.log(PROF_LOG_WARN, "chrome-json: " + std::to_string(skipped_) +
                                 " events left out (counter values off counter tracks or not "
                                 "finite, other events on counter tracks, samples without a call "
                                 "stack)");
  file_.log_written(events_);
  return true;
}

void ChromeJsonExporter::emit_record(const std::string &record) {
  out_ += first_record_ ? "\n" : ",\n";
  first_record_ = false;
  out_ += record;
}

void ChromeJsonExporter::open_event(const char *phase, const ChromePlace &place, uint64_t ts) {
  out_ += first_record_ ? "\n" : ",\n";
  first_record_ = false;
  out_ += "{\"ph\":\"";
  out_ += phase;
  out_ += "\",\"pid\":";
  append_int(out_, place.pid);
  out_ += ",\"tid\":";
  append_int(out_, place.tid);
  out_ += ",\"ts\":";
  append_microseconds(out_, static_cast<int64_t>(ts - base_ns_));
}

void ChromeJsonExporter::append_name(std::string_view name, std::string_view category,
                                     uint16_t kind) {
  out_ += ",\"name\":";
  append_json_string(out_, name);
  // Chrome's cat is a comma-separated list: the vendor's, then the well-known one.
  const std::string_view well_known = category_name(kind);
  if (!category.empty() || !well_known.empty()) {
    out_ += ",\"cat\":";
    append_json_string(out_, well_known.empty() ? std::string(category)
                             : category.empty()
                                 ? std::string(well_known)
                                 : std::string(category) + "," + std::string(well_known));
  }
}

void ChromeJsonExporter::append_args(const prof_event &e, bool with_correlation) {
  const std::span<const prof_arg> args = host_.args(e.args);
  if (args.empty() && !(with_correlation && e.id != 0)) return;
  out_ += ",\"args\":{";
  bool first = true;
  if (with_correlation && e.id != 0) {
    out_ += "\"correlation_id\":";
    out_ += std::to_string(e.id);
    first = false;
  }
  for (const prof_arg &a : args) {
    if (!first) out_ += ',';
    first = false;
    append_json_string(out_, host_.string(a.key));
    out_ += ':';
    std::string number;
    if (a.type == PROF_ARG_INT || a.type == PROF_ARG_UINT ||
        (a.type == PROF_ARG_DOUBLE && append_double(number, a.value.d)))
      out_ += a.type == PROF_ARG_DOUBLE ? number : host_.arg_text(a);
    else
      append_json_string(out_, host_.arg_text(a)); // strings, and doubles JSON cannot hold
  }
  out_ += '}';
}

void ChromeJsonExporter::write(const prof_event &e) {
  if (!have_base_) {
    have_base_ = true;
    base_ns_ = e.ts;
  }
  // Resolve before writing the event: the track's metadata goes first.
  const ChromePlace &place = tracks_.use(e.track);
  const bool on_counter = place.counter;
  switch (e.type) {
  case PROF_EVENT_SLICE:
    if (on_counter) break;
    write_slice(e, place);
    return;
  case PROF_EVENT_INSTANT:
    if (on_counter) break;
    open_event("i", place, e.ts);
    out_ += ",\"s\":\"t\"";
    append_name(host_.string(e.name), host_.string(e.category), e.kind);
    append_args(e, false);
    out_ += '}';
    return;
  case PROF_EVENT_COUNTER: {
    if (!on_counter) break;
    std::string value;
    if (!append_double(value, e.value)) break;
    open_event("C", place, e.ts);
    append_name(place.label, {});
    out_ += ",\"args\":{\"value\":";
    out_ += value;
    out_ += "}}";
    return;
  }
  case PROF_EVENT_FLOW: {
    if (on_counter) break;
    const char *phase = e.flags == PROF_FLOW_BEGIN ? "s" : e.flags == PROF_FLOW_END ? "f" : "t";
    const std::string_view name = host_.string(e.name);
    write_flow(phase, "flow", name.empty() ? "flow" : name, e.id, e.ts, place);
    return;
  }
  case PROF_EVENT_SAMPLE:
    if (on_counter) break;
    write_sample(e, place);
    return;
  default:
    break;
  }
  ++skipped_;
}

void ChromeJsonExporter::write_slice(const prof_event &e, const ChromePlace &place) {
  open_event("X", place, e.ts);
  out_ += ",\"dur\":";
  append_microseconds(out_, static_cast<int64_t>(e.duration));
  append_name(host_.string(e.name), host_.string(e.category), e.kind);
  append_args(e, true);
  // Arrows come from the flow events sources emit (PROF_EVENT_FLOW): a set
  // of every correlation id seen grew with the report.
  out_ += '}';
}

void ChromeJsonExporter::write_flow(const char *phase, const char *category, std::string_view name,
                                    uint64_t id, uint64_t ts, const ChromePlace &place) {
  static constexpr char kHex[] = "0123456789abcdef";
  open_event(phase, place, ts);
  append_name(name, category);
  out_ += ",\"id\":\"0x";
  char digits[16];
  int n = 0;
  do {
    digits[n++] = kHex[id & 0xF];
    id >>= 4;
  } while (id != 0);
  while (n > 0)
    out_ += digits[--n];
  out_ += "\",\"bp\":\"e\"}";
}

void ChromeJsonExporter::write_sample(const prof_event &e, const ChromePlace &place) {
  const auto [frames, count] = host_.stack(static_cast<prof_stack_id>(e.id));
  if (e.id == 0 || frames == nullptr || count == 0) {
    ++skipped_;
    return;
  }
  open_event("i", place, e.ts);
  out_ += ",\"s\":\"t\"";
  append_name(host_.string(frames[0]), e.category != 0 ? host_.string(e.category) : "sample");
  // prof lists frames leaf first; the stack reads root first, like folded stacks.
  std::string stack;
  for (uint32_t i = count; i-- > 0;) {
    stack += host_.string(frames[i]);
    if (i != 0) stack += ';';
  }
  out_ += ",\"args\":{\"stack\":";
  append_json_string(out_, stack);
  out_ += "}}";
}

} // namespace prof::chrome_json
