#include "kineto_exporter.hpp"

#include <prof/kineto_format.hpp>

#include "kineto_args.hpp"
#include <prof/json_text.hpp>
#include <prof/session_plugins.hpp>

#include <prof/event.hpp>

#include <charconv>
#include <cstddef>

namespace prof::kineto {

namespace kf = kineto_format;
namespace {

constexpr std::string_view kProfilerStep = kf::kProfilerStepPrefix;

/// ProfilerStep#N's N, 0 for any other name.
uint64_t profiler_step(std::string_view name) {
  if (!name.starts_with(kProfilerStep)) return 0;
  const std::string_view digits = name.substr(kProfilerStep.size());
  uint64_t number = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  return error == std::errc() && end == digits.data() + digits.size() ? number : 0;
}

/// What the importer of an imported report recorded under `key` ("" none):
/// this plugin's record, or "pytorch-trace"'s in reports imported before
/// importers were plugins.
std::string import_detail(std::string_view plugins, std::string_view key) {
  for (const char *importer : {"kineto", "pytorch-trace"})
    if (std::string value = session_plugin_option(plugins, importer, key); !value.empty())
      return value;
  return "";
}

} // namespace

KinetoExporter::KinetoExporter(ExportHost host)
    : host_(host), places_(host, [this](const std::string &record) { emit_record(record); }),
      file_(host, "kineto", kExtension) {}

bool KinetoExporter::begin() {
  if (!file_.open(kOptions)) return false;
  const prof_session_info &session = host_.session();
  // ts counts from the session's start (ABI 1.3), else from the first event.
  if (session.struct_size >= offsetof(prof_session_info, start_ns) + sizeof session.start_ns &&
      session.start_ns != 0) {
    have_base_ = true;
    base_ns_ = session.start_ns;
  }
  out_ = "{\"schemaVersion\":1,\"deviceProperties\":[],\"traceEvents\":[";
  return true;
}

bool KinetoExporter::consume(const prof_event *events, size_t count) {
  if (file_.failed()) return false;
  for (size_t i = 0; i < count; ++i) {
    write(events[i]);
    if (!file_.write_if_full(out_)) return false;
  }
  events_ += count;
  return true;
}

void KinetoExporter::emit_record(const std::string &record) {
  out_ += first_record_ ? "\n" : ",\n";
  first_record_ = false;
  out_ += record;
}

void KinetoExporter::open_event(char phase, const KinetoPlace &place, uint64_t ts) {
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

void KinetoExporter::write(const prof_event &e) {
  if (!have_base_) {
    have_base_ = true;
    base_ns_ = e.ts;
  }
  const KinetoPlace &place = places_.use(e.track);
  if (place.counter || e.type == PROF_EVENT_COUNTER || e.type == PROF_EVENT_SAMPLE) {
    ++skipped_;
    return;
  }
  if (e.type == PROF_EVENT_FLOW) {
    add_flow_end(e, place);
    return;
  }
  if (e.type == PROF_EVENT_INSTANT) {
    write_instant(e, place);
    return;
  }
  if (e.type != PROF_EVENT_SLICE) {
    ++skipped_;
    return;
  }
  const std::string_view name = host_.string(e.name);
  if (e.kind == PROF_CATEGORY_COMMUNICATION) note_collective(e);
  if (e.kind == PROF_CATEGORY_ANNOTATION) {
    // A step: Kineto's ProfilerStep#N.
    for (const prof_arg &a : host_.args(e.args))
      if (a.type == PROF_ARG_UINT && host_.string(a.key) == PROF_STEP_ARG) {
        steps_.insert({place.pid, place.tid, e.ts, a.value.u});
        write_slice(e, place, std::string(kProfilerStep) + std::to_string(a.value.u));
        return;
      }
    if (const uint64_t number = profiler_step(name); number != 0) {
      step_ranges_.push_back({e, place, number});
      return;
    }
  }
  write_slice(e, place, kineto_name(e, place, name));
}

void KinetoExporter::write_slice(const prof_event &e, const KinetoPlace &place,
                                 std::string_view name) {
  open_event('X', place, e.ts);
  out_ += ",\"dur\":";
  append_microseconds(out_, static_cast<int64_t>(e.duration));
  out_ += ",\"name\":";
  append_json_string(out_, name);
  out_ += ",\"cat\":";
  append_json_string(out_, kineto_category(host_, e, place));
  const bool step = name.starts_with(kProfilerStep) && e.kind == PROF_CATEGORY_ANNOTATION;
  if (!step) append_kineto_args(out_, host_, e, place);
  out_ += '}';
}

void KinetoExporter::write_instant(const prof_event &e, const KinetoPlace &place) {
  // Kineto puts memory events on the host's thread that made them; a
  // device's go to the first process.
  const bool memory = e.kind == PROF_CATEGORY_MEMORY;
  KinetoPlace at = place;
  if (memory && place.device) {
    at.device = false;
    at.pid = places_.main_pid();
    at.tid = at.pid;
  }
  open_event('i', at, e.ts);
  out_ += ",\"s\":\"t\",\"name\":";
  append_json_string(out_, memory ? std::string_view(kf::kMemoryEvent) : host_.string(e.name));
  out_ += ",\"cat\":";
  append_json_string(out_, kineto_category(host_, e, place));
  append_kineto_args(out_, host_, e, place);
  out_ += '}';
}

void KinetoExporter::add_flow_end(const prof_event &e, const KinetoPlace &place) {
  const bool begin = e.flags == PROF_FLOW_BEGIN;
  if (e.flags == PROF_FLOW_STEP) {
    ++skipped_;
    return;
  }
  auto &mine = begin ? flow_begins_ : flow_ends_;
  auto &other = begin ? flow_ends_ : flow_begins_;
  const auto found = other.find(e.id);
  if (found == other.end()) {
    mine[e.id] = {place, e.ts};
    return;
  }
  const FlowEnd here{place, e.ts};
  const FlowEnd &from = begin ? here : found->second;
  const FlowEnd &to = begin ? found->second : here;
  const char *category = to.place.device ? kf::kLaunchFlow : kf::kForwardBackwardFlow;
  write_flow('s', from, e.id, category);
  write_flow('f', to, e.id, category);
  other.erase(found);
}

void KinetoExporter::write_flow(char phase, const FlowEnd &end, uint64_t id, const char *category) {
  open_event(phase, end.place, end.ts);
  out_ += ",\"id\":";
  append_uint(out_, id);
  out_ += ",\"cat\":\"";
  out_ += category;
  out_ += "\",\"name\":\"";
  out_ += category;
  out_ += phase == 'f' ? "\",\"bp\":\"e\"}" : "\"}";
}

void KinetoExporter::note_collective(const prof_event &e) {
  std::string communicator;
  int64_t size = 0;
  for (const prof_arg &a : host_.args(e.args)) {
    const std::string_view key = host_.string(a.key);
    if (key == "communicator" && a.type == PROF_ARG_STRING) communicator = host_.string(a.value.s);
    if (key == "group size" && a.type == PROF_ARG_INT) size = a.value.i;
    if (key == "group size" && a.type == PROF_ARG_UINT) size = static_cast<int64_t>(a.value.u);
  }
  const size_t colon = communicator.find(':');
  if (colon == std::string::npos) return;
  if (backend_.empty()) backend_ = communicator.substr(0, colon);
  if (communicator.substr(colon + 1) == "0")
    default_group_size_ = std::max(default_group_size_, size);
}

std::string KinetoExporter::trailer() {
  const prof_session_info &session = host_.session();
  const bool newer = session.struct_size >= offsetof(prof_session_info, rank) + sizeof session.rank;
  const std::string_view plugins = newer && session.plugins ? session.plugins : "";
  const std::string_view rank_text = newer && session.rank ? session.rank : "";
  int64_t rank = 0;
  std::from_chars(rank_text.data(), rank_text.data() + rank_text.size(), rank);
  std::string backend = import_detail(plugins, kf::kDetailBackend);
  if (backend.empty()) backend = backend_;
  int64_t world_size = 0;
  const std::string world = import_detail(plugins, kf::kDetailWorldSize);
  std::from_chars(world.data(), world.data() + world.size(), world_size);
  if (world_size <= 0) world_size = default_group_size_;

  const auto key = [](std::string &out, std::string_view name, std::string_view space = "") {
    out += ",\"";
    out += name;
    out += "\":";
    out += space;
  };
  std::string text = "\n]";
  key(text, kf::kDistributedInfo);
  text += '{';
  append_json_string(text.append("\"").append(kf::kBackend).append("\":"), backend);
  // HTA finds a file's rank with the pattern "rank":\s+(\d+), as Kineto spaces it.
  key(text, kf::kRank, " ");
  append_int(text, rank);
  if (world_size > 0) {
    key(text, kf::kWorldSize);
    append_int(text, world_size);
  }
  text += '}';
  // The wall clock of ts 0, unless the report has none (an imported legacy trace).
  const bool anchored = session.struct_size >= offsetof(prof_session_info, realtime_anchor_ns) +
                                                   sizeof session.realtime_anchor_ns &&
                        session.realtime_anchor_ns != 0 &&
                        import_detail(plugins, "clock") != "start";
  if (anchored) {
    key(text, kf::kBaseTimeNanoseconds);
    append_int(text, static_cast<int64_t>(session.realtime_anchor_ns) +
                         (static_cast<int64_t>(base_ns_) -
                          static_cast<int64_t>(session.monotonic_anchor_ns)));
  }
  text += ",\"displayTimeUnit\":\"ms\",\"traceName\":";
  append_json_string(text, file_.final_path());
  text += "}\n";
  return text;
}

bool KinetoExporter::end() {
  if (file_.failed()) return false;
  for (const StepRange &range : step_ranges_)
    if (!steps_.contains({range.place.pid, range.place.tid, range.event.ts, range.number}))
      write_slice(range.event, range.place, host_.string(range.event.name));
  skipped_ += flow_begins_.size() + flow_ends_.size();
  out_ += trailer();
  if (!file_.write(out_) || !file_.commit()) return false;
  if (skipped_ > 0)
    host_.log(PROF_LOG_INFO, "kineto: " + std::to_string(skipped_) +
                                 " events have no Kineto form and are left out (counters, CPU "
                                 "samples, flows without their other end)");
  file_.log_written(events_);
  return true;
}

} // namespace prof::kineto
