#include "tools/prof-plugin-check/event_checker.hpp"

#include "core/runtime/event_args_record.hpp"

#include <cmath>
#include <prof/plugin.hpp>

namespace prof::plugin_check {
namespace {

const char *type_name(uint8_t type) {
  switch (type) {
  case PROF_EVENT_SLICE:
    return "slice";
  case PROF_EVENT_INSTANT:
    return "instant";
  case PROF_EVENT_COUNTER:
    return "counter";
  case PROF_EVENT_SAMPLE:
    return "sample";
  case PROF_EVENT_FLOW:
    return "flow";
  }
  return "event";
}

} // namespace

bool is_utf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t extra = 0;
    if (c >= 0x80) {
      if ((c >> 5) == 0x6)
        extra = 1;
      else if ((c >> 4) == 0xe)
        extra = 2;
      else if ((c >> 3) == 0x1e)
        extra = 3;
      else
        return false;
    }
    if (i + extra >= text.size() && extra > 0) return false;
    for (size_t k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return false;
    i += extra + 1;
  }
  return true;
}

std::string EventChecker::where(const prof_event &e) const {
  std::string text = type_name(e.type);
  if ((e.type == PROF_EVENT_SLICE || e.type == PROF_EVENT_INSTANT) && e.name != 0 &&
      e.name < catalog_.strings.size())
    text += " '" + catalog_.strings.text(e.name) + "'";
  if (const core::TrackEntry *track = catalog_.tracks.find(e.track))
    text += " on track '" + track->name + "' (" + std::to_string(e.track) + ")";
  else
    text += " on track " + std::to_string(e.track);
  return text;
}

void EventChecker::event(const prof_event &e, bool after_stop) {
  findings_.count(e.type);
  if (after_stop) findings_.add("events.after-stop", where(e) + " emitted after stop() returned");
  const core::TrackEntry *track = catalog_.tracks.find(e.track);
  if (track == nullptr)
    findings_.add("events.declared-track",
                  std::string(type_name(e.type)) + " on track " + std::to_string(e.track) +
                      (e.track == 0 ? ", the root, which holds no events" : " never declared"));
  const size_t strings = catalog_.strings.size();
  if (e.name >= strings)
    findings_.add("events.strings",
                  where(e) + " is named by string " + std::to_string(e.name) + ", never interned");
  if (e.category >= strings)
    findings_.add("events.strings", where(e) + " has category string " +
                                        std::to_string(e.category) + ", never interned");
  if (e.type == PROF_EVENT_SAMPLE && e.id >= catalog_.stacks.size())
    findings_.add("events.stacks",
                  where(e) + " names stack " + std::to_string(e.id) + ", never interned");
  if (e.type == PROF_EVENT_SLICE) {
    if (static_cast<int64_t>(e.duration) < 0)
      findings_.add("events.slice-duration", where(e) + " has a negative duration (" +
                                                 std::to_string(static_cast<int64_t>(e.duration)) +
                                                 ")");
    else if (e.ts + e.duration < e.ts)
      findings_.add("events.slice-duration", where(e) + " ends past the end of time");
  }
  if (e.type == PROF_EVENT_FLOW) {
    if (e.flags > PROF_FLOW_END)
      findings_.add("events.flows", where(e) + " has unknown phase " + std::to_string(e.flags));
    std::lock_guard lock(mutex_);
    flows_[e.id] |= 1u << (e.flags & 7u);
  }
  if (track == nullptr) return;
  const bool on_counter_track = track->desc.kind == PROF_TRACK_COUNTER;
  if (e.type == PROF_EVENT_COUNTER && !on_counter_track)
    findings_.add("events.counter-track",
                  where(e) + ", a " + track_kind_name(track->desc.kind) + " track");
  else if (e.type == PROF_EVENT_COUNTER && !std::isfinite(e.value))
    findings_.add("events.counter-track", where(e) + " has value " + std::to_string(e.value));
  check_clock(e, *track);
}

void EventChecker::check_clock(const prof_event &e, const core::TrackEntry &track) {
  const prof_clock_id clock = track.desc.clock;
  if (clock == PROF_CLOCK_SESSION || clock == PROF_CLOCK_TSC) return;
  const core::ClockDomain *domain = catalog_.clocks.find(clock);
  if (domain == nullptr)
    findings_.add("events.clock-calibration",
                  where(e) + " is in clock domain " + std::to_string(clock) + ", never registered");
  else if (domain->calibration().empty())
    findings_.add("events.clock-calibration",
                  where(e) + " came before any calibration of clock '" + domain->name() + "'");
}

void EventChecker::args_record(const prof_event &record) {
  prof_arg args[core::kArgsPerRecord];
  const uint32_t count = core::unpack_args_record(record, args);
  const size_t strings = catalog_.strings.size();
  for (uint32_t i = 0; i < count; ++i) {
    if (args[i].key == 0 || args[i].key >= strings)
      findings_.add("events.strings", "an argument's key is string " + std::to_string(args[i].key) +
                                          ", never interned");
    if (args[i].type < PROF_ARG_INT || args[i].type > PROF_ARG_TYPE_LAST)
      findings_.add("events.strings",
                    "an argument has unknown type " + std::to_string(args[i].type));
    if (args[i].type == PROF_ARG_STRING && args[i].value.s >= strings)
      findings_.add("events.strings", "an argument's value is string " +
                                          std::to_string(args[i].value.s) + ", never interned");
    if (args[i].type == PROF_ARG_STACK && args[i].value.u >= catalog_.stacks.size())
      findings_.add("events.stacks", "an argument's value is stack " +
                                         std::to_string(args[i].value.u) + ", never interned");
  }
}

void EventChecker::string(const char *text, size_t length) {
  if (text == nullptr) {
    if (length > 0) findings_.add("events.strings", "intern_string got NULL text");
    return;
  }
  const std::string_view view(text, length);
  if (view.find('\0') != std::string_view::npos)
    findings_.add("events.strings", "an interned string holds a NUL byte");
  else if (!is_utf8(view))
    findings_.add("events.strings", "interned string '" + std::string(view) + "' is not UTF-8");
}

void EventChecker::track_refused(const std::string &reason) {
  findings_.add("events.declared-track", "declare_track refused: " + reason);
}

void EventChecker::dropped(prof_drop_cause cause) {
  if (cause != PROF_DROP_DEVICE_BUFFER_FULL && cause != PROF_DROP_KERNEL_LOST)
    findings_.add("events.drop-causes",
                  "count_dropped with cause " + std::to_string(static_cast<int>(cause)) +
                      ": a plugin counts only PROF_DROP_DEVICE_BUFFER_FULL and "
                      "PROF_DROP_KERNEL_LOST");
}

void EventChecker::stack(const prof_string_id *frames, uint32_t count) {
  if (frames == nullptr && count > 0) {
    findings_.add("events.stacks", "intern_stack got NULL frames");
    return;
  }
  const size_t strings = catalog_.strings.size();
  for (uint32_t i = 0; i < count; ++i)
    if (frames[i] >= strings)
      findings_.add("events.stacks", "a stack's frame " + std::to_string(i) + " is string " +
                                         std::to_string(frames[i]) + ", never interned");
}

void EventChecker::finish() {
  std::lock_guard lock(mutex_);
  for (const auto &[id, phases] : flows_) {
    const bool begins = phases & (1u << PROF_FLOW_BEGIN), ends = phases & (1u << PROF_FLOW_END);
    if (begins && !ends)
      findings_.add("events.flows", "flow " + std::to_string(id) + " begins but never ends");
    else if (ends && !begins)
      findings_.add("events.flows", "flow " + std::to_string(id) + " ends but never begins");
  }
  flows_.clear();
}

} // namespace prof::plugin_check
