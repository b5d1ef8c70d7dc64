#include "read/event_reader.hpp"

#include "read/trace_read_error.hpp"
#include "read/trace_values.hpp"
#include <prof/collective_names.hpp>
#include <prof/kineto_format.hpp>

#include <prof/event.hpp>

#include <algorithm>
#include <cctype>

namespace prof::kineto {

namespace kf = kineto_format;

using activity::JsonType;
using activity::JsonValue;

namespace {

/// What a trace event's "cat" says it is.
enum class Cat {
  Operator,
  UserAnnotation,
  GpuAnnotation,
  Python,
  Runtime,
  Driver,
  Kernel,
  Memcpy,
  Memset,
  Sync,
  Other
};

Cat cat_of(std::string_view cat) {
  std::string lower(cat);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == kf::kCpuOp || lower == "operator") return Cat::Operator;
  if (lower == kf::kUserAnnotation) return Cat::UserAnnotation;
  if (lower == kf::kGpuUserAnnotation) return Cat::GpuAnnotation;
  if (lower == kf::kPythonFunction) return Cat::Python;
  if (lower == kf::kCudaRuntime || lower == "runtime") return Cat::Runtime;
  if (lower == kf::kCudaDriver || lower == "driver") return Cat::Driver;
  if (lower == kf::kKernel) return Cat::Kernel;
  if (lower == kf::kGpuMemcpy || lower == "memcpy") return Cat::Memcpy;
  if (lower == kf::kGpuMemset || lower == "memset") return Cat::Memset;
  if (lower == kf::kCudaSync) return Cat::Sync;
  return Cat::Other;
}

/// A copy's direction from its name: "Memcpy HtoD (Pageable -> Device)".
prof_category copy_kind(std::string_view name) {
  if (name.find("HtoD") != std::string_view::npos) return PROF_CATEGORY_MEMCPY_HTOD;
  if (name.find("DtoH") != std::string_view::npos) return PROF_CATEGORY_MEMCPY_DTOH;
  if (name.find("DtoD") != std::string_view::npos) return PROF_CATEGORY_MEMCPY_DTOD;
  if (name.find("PtoP") != std::string_view::npos) return PROF_CATEGORY_MEMCPY_PTOP;
  return PROF_CATEGORY_MEMCPY;
}

constexpr std::string_view kEvaluatePrefix = "autograd::engine::evaluate_function:";
constexpr std::string_view kParamComms = kf::kParamComms;

/// A rank a "process_labels" text names ("rank: 3", "Rank 3"), -1 when none.
int64_t rank_in_labels(std::string_view labels) {
  std::string lower(labels);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const size_t at = lower.find("rank");
  if (at == std::string::npos) return -1;
  size_t i = at + 4;
  while (i < lower.size() && (lower[i] == ' ' || lower[i] == ':' || lower[i] == '='))
    ++i;
  int64_t rank = -1;
  while (i < lower.size() && std::isdigit(static_cast<unsigned char>(lower[i])) && rank < 1 << 24)
    rank = (rank < 0 ? 0 : rank * 10) + (lower[i++] - '0');
  return rank;
}

} // namespace

bool is_backend_collective(std::string_view name) {
  const size_t colon = name.find(':');
  if (colon == 0 || colon == std::string_view::npos || colon > 16) return false;
  for (size_t i = 0; i < colon; ++i)
    if (!std::islower(static_cast<unsigned char>(name[i])) &&
        !std::isdigit(static_cast<unsigned char>(name[i])))
      return false;
  const std::string_view rest = name.substr(colon + 1);
  if (rest.empty() || rest.find(':') != std::string_view::npos) return false;
  for (const char c : rest)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return known_collective_operation(collective_operation(name));
}

bool is_c10d_collective(std::string_view name) {
  return name.starts_with("c10d::") && known_collective_operation(collective_operation(name));
}

bool is_backward_name(std::string_view name) {
  if (name.starts_with(kEvaluatePrefix)) return true;
  size_t digits = 0;
  while (digits < name.size() &&
         std::isdigit(static_cast<unsigned char>(name[name.size() - 1 - digits])))
    ++digits;
  return digits > 0 && name.substr(0, name.size() - digits).ends_with("Backward");
}

KinetoEventReader::KinetoEventReader(ImportedTrace &trace, std::string_view document)
    : trace_(trace), text_(document) {
  keys_ = {text("sequence number"),
           text("forward thread"),
           text(PROF_OPERATOR_ARG_INPUT_SHAPES),
           text(PROF_OPERATOR_ARG_INPUT_TYPES),
           text("grid"),
           text("block"),
           text("registers_per_thread"),
           text("stream"),
           text("device"),
           text("context"),
           text(PROF_MEMORY_ARG_BYTES),
           text(PROF_MEMORY_ARG_OPERATION),
           text(PROF_MEMORY_ARG_ADDRESS),
           text(PROF_MEMORY_ARG_MEMORY),
           text("total allocated"),
           text("total reserved")};
  torch_ = text("torch");
  python_ = text("python");
  alloc_ = text("alloc");
  free_ = text("free");
  device_memory_ = text("device");
}

void KinetoEventReader::add(const JsonValue &event) {
  if (event.type != JsonType::Object)
    throw TraceReadError("expected an event object, found " +
                             std::string(activity::json_type_name(event.type)),
                         event.offset);
  const JsonValue *ph = event.find("ph");
  if (ph == nullptr || ph->type != JsonType::String || ph->string.size() != 1)
    throw TraceReadError("expected a one-letter \"ph\" in the event",
                         ph ? ph->offset : event.offset);
  const JsonValue *name_value = event.find("name");
  if (name_value != nullptr && name_value->type != JsonType::String)
    throw TraceReadError("expected a string for \"name\"", name_value->offset);
  const std::string_view name = name_value ? std::string_view(name_value->string) : "";
  const JsonValue *cat_value = event.find("cat");
  const std::string_view cat =
      cat_value && cat_value->type == JsonType::String ? std::string_view(cat_value->string) : "";
  switch (ph->string[0]) {
  case 'X':
    add_slice(event, name, cat);
    break;
  case 'i':
  case 'I':
    add_instant(event, name, cat);
    break;
  case 's':
  case 'f':
  case 't':
    add_flow(event, cat, ph->string[0]);
    break;
  case 'M':
    add_metadata(event, name);
    break;
  default:
    ++trace_.skipped; // B/E pairs, counters, ...: PyTorch writes none of them
  }
}

void KinetoEventReader::add_metadata(const JsonValue &event, std::string_view name) {
  const JsonValue *args = event.find("args");
  if (args == nullptr || args->type != JsonType::Object) return;
  const Lane lane = thread_lane(event);
  if (name == kf::kProcessName) {
    if (const JsonValue *n = args->find("name"); n && n->type == JsonType::String)
      trace_.process_names[lane.pid] = n->string;
  } else if (name == kf::kThreadName) {
    if (const JsonValue *n = args->find("name"); n && n->type == JsonType::String)
      trace_.thread_names[{lane.pid, lane.tid}] = n->string;
  } else if (name == kf::kProcessLabels) {
    const JsonValue *labels = args->find(kf::kLabels);
    if (labels && labels->type == JsonType::String)
      if (const int64_t rank = rank_in_labels(labels->string); rank >= 0)
        trace_.labelled_rank = rank;
    if (const JsonValue *rank = args->find(kf::kRank); rank && rank->type == JsonType::Number)
      trace_.labelled_rank = exact_integer(text_, *rank);
  }
}

void KinetoEventReader::add_slice(const JsonValue &event, std::string_view name,
                                  std::string_view cat_text) {
  const JsonValue *args = event.find("args");
  if (args != nullptr && args->type != JsonType::Object)
    throw TraceReadError("expected an object for \"args\"", args->offset);
  const Cat cat = trace_.form == TraceForm::Legacy ? Cat::Operator : cat_of(cat_text);
  ImportedEvent out;
  out.type = PROF_EVENT_SLICE;
  out.name = text(name);
  out.ts = time_ns(event, "ts", true);
  out.duration = std::max<int64_t>(0, time_ns(event, "dur", false));
  const JsonValue *correlation = args ? args->find(kf::kCorrelation) : nullptr;
  if (correlation && correlation->type == JsonType::Number)
    out.id = static_cast<uint64_t>(std::max<int64_t>(0, exact_integer(text_, *correlation)));
  switch (cat) {
  case Cat::Operator:
    out.kind = PROF_CATEGORY_OPERATOR;
    out.category = torch_;
    out.role = EventRole::Operator;
    out.lane = thread_lane(event);
    add_operator_args(out, args);
    if (name == kParamComms) {
      out.role = EventRole::ParamComms;
      out.facts = std::make_shared<CollectiveFacts>(collective_facts(text_, args));
    }
    break;
  case Cat::UserAnnotation:
    out.kind = PROF_CATEGORY_ANNOTATION;
    out.category = torch_;
    out.lane = thread_lane(event);
    break;
  case Cat::GpuAnnotation:
    out.kind = PROF_CATEGORY_ANNOTATION;
    out.category = torch_;
    out.lane = device_lane(event, args);
    break;
  case Cat::Python:
    out.kind = PROF_CATEGORY_ANNOTATION;
    out.category = python_;
    out.lane = thread_lane(event);
    break;
  case Cat::Runtime:
  case Cat::Driver:
    out.kind = cat == Cat::Runtime ? PROF_CATEGORY_RUNTIME_API : PROF_CATEGORY_DRIVER_API;
    out.category = text(cat_text);
    out.lane = thread_lane(event);
    break;
  case Cat::Kernel:
  case Cat::Memcpy:
  case Cat::Memset:
  case Cat::Sync:
    out.kind = cat == Cat::Kernel   ? PROF_CATEGORY_KERNEL
               : cat == Cat::Memcpy ? copy_kind(name)
               : cat == Cat::Memset ? PROF_CATEGORY_MEMSET
                                    : PROF_CATEGORY_SYNC;
    out.category = text(cat_text);
    out.lane = device_lane(event, args);
    add_device_args(out, args);
    break;
  case Cat::Other:
    out.category = text(cat_text);
    out.lane = thread_lane(event);
    break;
  }
  // A backend's collective is recorded as an operator (legacy) or a user
  // range (Kineto), never on the device's side.
  if ((cat == Cat::Operator || cat == Cat::UserAnnotation) && is_backend_collective(name)) {
    out.kind = PROF_CATEGORY_COMMUNICATION;
    out.category = torch_;
    out.role = EventRole::BackendCollective;
    out.args.clear();
    // Its own record_param_comms arguments (prof's kineto exporter writes them).
    if (args != nullptr && (args->find(kf::kProcessGroupName) || args->find(kf::kSeq)))
      out.facts = std::make_shared<CollectiveFacts>(collective_facts(text_, args));
  } else if (cat == Cat::Operator && is_c10d_collective(name)) {
    out.role = EventRole::C10dOperator;
  }
  if (!out.lane.device) note_pid(out.lane.pid);
  trace_.events.push_back(std::move(out));
}

void KinetoEventReader::add_operator_args(ImportedEvent &out, const JsonValue *args) {
  if (args == nullptr) return;
  if (const JsonValue *v = args->find(kf::kSequenceNumber); v && v->type == JsonType::Number)
    out.args.push_back(arg_int(keys_.sequence_number, exact_integer(text_, *v)));
  if (const JsonValue *v = args->find(kf::kFwdThreadId);
      v && v->type == JsonType::Number && is_backward_name(trace_.strings.text(out.name)))
    out.args.push_back(arg_uint(keys_.forward_thread, static_cast<uint64_t>(std::max<int64_t>(
                                                          0, exact_integer(text_, *v)))));
  if (const JsonValue *v = args->find(kf::kInputDims); v && v->type != JsonType::Null)
    out.args.push_back(arg_string(keys_.input_shapes, text(list_text(*v))));
  if (const JsonValue *v = args->find(kf::kInputType); v && v->type != JsonType::Null)
    out.args.push_back(arg_string(keys_.input_types, text(list_text(*v))));
}

void KinetoEventReader::add_device_args(ImportedEvent &out, const JsonValue *args) {
  if (args == nullptr) return;
  const auto dims = [&](const char *key, prof_string_id arg) {
    const JsonValue *v = args->find(key);
    if (v == nullptr || v->type != JsonType::Array) return;
    std::string joined;
    for (const JsonValue &d : v->array)
      joined += (joined.empty() ? "" : "x") + list_text(d);
    out.args.push_back(arg_string(arg, text(joined)));
  };
  const auto number = [&](const char *key, prof_string_id arg) {
    const JsonValue *v = args->find(key);
    if (v != nullptr && v->type == JsonType::Number)
      out.args.push_back(
          arg_uint(arg, static_cast<uint64_t>(std::max<int64_t>(0, exact_integer(text_, *v)))));
  };
  if (out.kind == PROF_CATEGORY_KERNEL) {
    dims(kf::kGrid, keys_.grid);
    dims(kf::kBlock, keys_.block);
    number(kf::kRegistersPerThread, keys_.registers);
  } else if (out.kind != PROF_CATEGORY_SYNC) {
    number(kf::kCopyBytes, keys_.bytes);
  }
  number(kf::kStream, keys_.stream);
  number(kf::kDevice, keys_.device);
  number(kf::kContext, keys_.context);
}

void KinetoEventReader::add_instant(const JsonValue &event, std::string_view name,
                                    std::string_view cat) {
  ImportedEvent out;
  out.type = PROF_EVENT_INSTANT;
  out.name = text(name);
  out.category = text(cat);
  out.ts = time_ns(event, "ts", true);
  out.lane = thread_lane(event);
  const JsonValue *args = event.find("args");
  if (name == kf::kMemoryEvent && args != nullptr && args->type == JsonType::Object) {
    out.kind = PROF_CATEGORY_MEMORY;
    const auto integer = [&](const char *key) -> std::optional<int64_t> {
      const JsonValue *v = args->find(key);
      if (v == nullptr || v->type != JsonType::Number) return std::nullopt;
      return exact_integer(text_, *v);
    };
    const int64_t bytes = integer(kf::kBytes).value_or(0);
    out.args.push_back(arg_string(keys_.operation, bytes < 0 ? free_ : alloc_));
    out.args.push_back(
        arg_uint(keys_.address, static_cast<uint64_t>(integer(kf::kAddr).value_or(0))));
    // Negated as unsigned: INT64_MIN has no signed negation.
    const auto size = static_cast<uint64_t>(bytes);
    out.args.push_back(arg_uint(keys_.bytes, bytes < 0 ? 0 - size : size));
    // Device Type is c10's DeviceType: 0 the CPU, 1 CUDA, others accelerators.
    const int64_t device_type = integer(kf::kDeviceType).value_or(0);
    if (device_type != 0) {
      out.args.push_back(arg_string(keys_.memory, device_memory_));
      out.lane = {true, std::max<int64_t>(0, integer(kf::kDeviceId).value_or(0)), kDeviceMemoryRow};
    }
    if (const auto total = integer(kf::kTotalAllocated); total && *total >= 0)
      out.args.push_back(arg_uint(keys_.total_allocated, static_cast<uint64_t>(*total)));
    if (const auto total = integer(kf::kTotalReserved); total && *total >= 0)
      out.args.push_back(arg_uint(keys_.total_reserved, static_cast<uint64_t>(*total)));
  }
  if (!out.lane.device) note_pid(out.lane.pid);
  trace_.events.push_back(std::move(out));
}

void KinetoEventReader::add_flow(const JsonValue &event, std::string_view cat, char phase) {
  ImportedEvent out;
  out.type = PROF_EVENT_FLOW;
  out.phase = phase == 's' ? PROF_FLOW_BEGIN : phase == 'f' ? PROF_FLOW_END : PROF_FLOW_STEP;
  out.category = text(cat);
  out.ts = time_ns(event, "ts", true);
  const JsonValue *id = event.find("id");
  if (id == nullptr) id = event.find("bind_id");
  if (id == nullptr || (id->type != JsonType::Number && id->type != JsonType::String))
    throw TraceReadError("expected an \"id\" in the flow event", event.offset);
  out.id = id->type == JsonType::Number ? static_cast<uint64_t>(exact_integer(text_, *id))
                                        : text(id->string) | (uint64_t{1} << 63);
  // ac2g's end is on the device's stream; Kineto gives its device as the pid.
  const bool on_device = phase == 'f' && cat == kf::kLaunchFlow;
  out.lane = on_device ? device_lane(event, nullptr) : thread_lane(event);
  trace_.events.push_back(std::move(out));
}

Lane KinetoEventReader::thread_lane(const JsonValue &event) {
  return {false, lane_number(event.find("pid"), "pid"), lane_number(event.find("tid"), "tid")};
}

Lane KinetoEventReader::device_lane(const JsonValue &event, const JsonValue *args) {
  Lane lane = thread_lane(event);
  lane.device = true;
  if (args != nullptr) {
    if (const JsonValue *d = args->find(kf::kDevice); d && d->type == JsonType::Number)
      lane.pid = exact_integer(text_, *d);
    if (const JsonValue *s = args->find(kf::kStream); s && s->type == JsonType::Number)
      lane.tid = exact_integer(text_, *s);
  }
  lane.pid = std::max<int64_t>(0, lane.pid);
  return lane;
}

int64_t KinetoEventReader::lane_number(const JsonValue *value, std::string_view field) {
  if (value == nullptr) return 0;
  if (value->type == JsonType::Number) return exact_integer(text_, *value);
  if (value->type != JsonType::String)
    throw TraceReadError("expected a number or a string for \"" + std::string(field) + "\"",
                         value->offset);
  // "stream 7": the number it ends with; other text gets an id of its own.
  const std::string &s = value->string;
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[s.size() - 1 - digits])))
    ++digits;
  if (digits > 0 && digits < 10 && digits < s.size() && s[s.size() - 1 - digits] == ' ')
    return std::stoll(s.substr(s.size() - digits));
  auto [it, added] = named_lanes_.try_emplace(std::string(field) + ":" + s, 0);
  if (added) {
    it->second = -static_cast<int64_t>(named_lanes_.size());
    trace_.lane_texts[it->second] = s;
  }
  return it->second;
}

int64_t KinetoEventReader::time_ns(const JsonValue &event, std::string_view field, bool required) {
  const JsonValue *value = event.find(field);
  if (value == nullptr) {
    if (!required) return 0;
    throw TraceReadError("expected \"" + std::string(field) + "\" in the event", event.offset);
  }
  if (value->type != JsonType::Number)
    throw TraceReadError("expected a number for \"" + std::string(field) + "\"", value->offset);
  // Far beyond any trace's times, and far enough from int64's ends that
  // sums and differences of two cannot overflow.
  constexpr int64_t kLimit = int64_t{1} << 61;
  return std::clamp<int64_t>(microseconds_to_ns(text_, *value), -kLimit, kLimit);
}

void KinetoEventReader::note_pid(int64_t pid) {
  if (trace_.form != TraceForm::Kineto || pid <= 0 || pid > INT32_MAX) return;
  const auto pid32 = static_cast<int32_t>(pid);
  if (std::find(trace_.pids.begin(), trace_.pids.end(), pid32) == trace_.pids.end())
    trace_.pids.push_back(pid32);
}

} // namespace prof::kineto
