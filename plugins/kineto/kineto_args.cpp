#include "kineto_args.hpp"

#include <prof/json_text.hpp>
#include <prof/kineto_format.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

namespace prof::kineto {

namespace kf = kineto_format;
namespace {

bool on_device(const KinetoPlace &place) { return place.device; }

/// An event's arguments by name.
class Args {
public:
  Args(const ExportHost &host, const prof_event &e) : host_(host) {
    for (const prof_arg &a : host.args(e.args))
      by_name_.emplace(std::string(host.string(a.key)), a);
  }
  const prof_arg *find(const std::string &key) const {
    const auto it = by_name_.find(key);
    return it == by_name_.end() ? nullptr : &it->second;
  }
  std::optional<int64_t> integer(const std::string &key) const {
    const prof_arg *a = find(key);
    if (a == nullptr) return std::nullopt;
    if (a->type == PROF_ARG_INT) return a->value.i;
    if (a->type == PROF_ARG_UINT) return static_cast<int64_t>(a->value.u);
    return std::nullopt;
  }
  std::optional<std::string> text(const std::string &key) const {
    const prof_arg *a = find(key);
    if (a == nullptr) return std::nullopt;
    return host_.arg_text(*a);
  }
  const std::multimap<std::string, prof_arg> &all() const { return by_name_; }

private:
  const ExportHost &host_;
  std::multimap<std::string, prof_arg> by_name_;
};

/// Builds one "args" object.
class ArgsWriter {
public:
  explicit ArgsWriter(std::string &out) : out_(out) {}
  ~ArgsWriter() {
    if (opened_) out_ += '}';
  }
  void key(std::string_view name) {
    out_ += opened_ ? "," : ",\"args\":{";
    opened_ = true;
    append_json_string(out_, name);
    out_ += ':';
  }
  void integer(std::string_view name, std::optional<int64_t> value) {
    if (!value) return;
    key(name);
    append_int(out_, *value);
  }
  void string(std::string_view name, const std::optional<std::string> &value) {
    if (!value) return;
    key(name);
    append_json_string(out_, *value);
  }
  void raw(std::string_view name, const std::string &json) {
    key(name);
    out_ += json;
  }

private:
  std::string &out_;
  bool opened_ = false;
};

/// Whether `text` is a list of lists of integers as "input shapes" writes
/// it, and so already JSON.
bool is_shape_list(std::string_view text) {
  if (text.empty() || text.front() != '[') return false;
  int depth = 0;
  for (const char c : text) {
    if (c == '[')
      ++depth;
    else if (c == ']')
      --depth;
    else if (!std::isdigit(static_cast<unsigned char>(c)) && c != ',' && c != ' ' && c != '-')
      return false;
    if (depth < 0) return false;
  }
  return depth == 0;
}

/// "[float, float, Scalar]" as a JSON array of strings.
std::string type_list(std::string_view text) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
    text = text.substr(1, text.size() - 2);
  std::string out = "[";
  if (!text.empty())
    for (size_t at = 0;;) {
      const size_t comma = text.find(", ", at);
      if (out.size() > 1) out += ',';
      append_json_string(out,
                         text.substr(at, comma == std::string_view::npos ? comma : comma - at));
      if (comma == std::string_view::npos) break;
      at = comma + 2;
    }
  return out + "]";
}

/// "1x2x3" as [1, 2, 3].
std::string dims_list(const std::string &text) {
  std::string out = "[";
  for (size_t at = 0;;) {
    const size_t x = text.find('x', at);
    const std::string part = text.substr(at, x == std::string::npos ? x : x - at);
    for (const char c : part)
      if (!std::isdigit(static_cast<unsigned char>(c))) return "";
    if (part.empty()) return "";
    if (out.size() > 1) out += ',';
    out += part;
    if (x == std::string::npos) break;
    at = x + 1;
  }
  return out + "]";
}

void operator_args(ArgsWriter &w, const Args &a) {
  w.integer(kf::kSequenceNumber, a.integer("sequence number"));
  w.integer(kf::kFwdThreadId, a.integer("forward thread"));
  if (const auto shapes = a.text(PROF_OPERATOR_ARG_INPUT_SHAPES)) {
    if (is_shape_list(*shapes))
      w.raw(kf::kInputDims, *shapes);
    else
      w.string(kf::kInputDims, shapes);
  }
  if (const auto types = a.text(PROF_OPERATOR_ARG_INPUT_TYPES))
    w.raw(kf::kInputType, type_list(*types));
}

void communication_args(ArgsWriter &w, const Args &a) {
  if (const auto operation = a.text("operation")) w.string(kf::kCollectiveName, operation);
  if (const auto communicator = a.text("communicator")) {
    const size_t colon = communicator->find(':');
    w.string(kf::kProcessGroupName,
             colon == std::string::npos ? *communicator : communicator->substr(colon + 1));
  }
  w.integer(kf::kSeq, a.integer("sequence"));
  w.integer(kf::kGroupSize, a.integer("group size"));
  w.integer(kf::kInMsgNelems, a.integer("elements"));
  w.integer(kf::kOutMsgNelems, a.integer("elements"));
  if (const auto dtype = a.text("dtype")) w.string(kf::kDtype, scalar_type_name(*dtype));
  if (const auto ranks = a.text("group ranks"))
    w.string(kf::kProcessGroupRanks, ranks_list(*ranks));
}

void device_args(ArgsWriter &w, const Args &a, const prof_event &e, const KinetoPlace &place) {
  if (e.kind == PROF_CATEGORY_KERNEL) {
    for (const char *name : {"grid", "block"})
      if (const auto dims = a.text(name)) {
        const std::string list = dims_list(*dims);
        if (list.empty())
          w.string(name, dims);
        else
          w.raw(name, list);
      }
    w.integer(kf::kRegistersPerThread, a.integer("registers_per_thread"));
  }
  w.integer(kf::kCopyBytes, a.integer("bytes"));
  // HTA takes an event with a stream for device work: the row's, unless the
  // source named one.
  w.integer(kf::kDevice, a.integer("device").value_or(place.device_index));
  w.integer(kf::kStream, a.integer("stream").value_or(place.tid));
  w.integer(kf::kContext, a.integer("context"));
  if (e.id != 0) w.integer(kf::kCorrelation, static_cast<int64_t>(e.id));
}

void memory_args(ArgsWriter &w, const Args &a, const KinetoPlace &place) {
  const bool free = a.text(PROF_MEMORY_ARG_OPERATION) == std::optional<std::string>("free");
  const int64_t bytes = a.integer(PROF_MEMORY_ARG_BYTES).value_or(0);
  const bool device =
      place.device || a.text(PROF_MEMORY_ARG_MEMORY) == std::optional<std::string>("device");
  w.integer(kf::kAddr, a.integer(PROF_MEMORY_ARG_ADDRESS));
  w.integer(kf::kBytes, free ? -bytes : bytes);
  w.integer(kf::kTotalAllocated, a.integer("total allocated"));
  w.integer(kf::kTotalReserved, a.integer("total reserved"));
  w.integer(kf::kDeviceType, device ? 1 : 0);
  w.integer(kf::kDeviceId, device ? std::max(place.device_index, 0) : -1);
}

} // namespace

std::string scalar_type_name(std::string_view dtype) {
  static const std::map<std::string_view, std::string_view> kNames = {
      {"float", "Float"},
      {"double", "Double"},
      {"c10::Half", "Half"},
      {"c10::BFloat16", "BFloat16"},
      {"long int", "Long"},
      {"int", "Int"},
      {"short int", "Short"},
      {"signed char", "Char"},
      {"unsigned char", "Byte"},
      {"bool", "Bool"},
      {"c10::complex<float>", "ComplexFloat"},
      {"c10::complex<double>", "ComplexDouble"}};
  const auto it = kNames.find(dtype);
  return std::string(it == kNames.end() ? dtype : it->second);
}

std::string ranks_list(std::string_view ranks) {
  std::string out = "[";
  size_t at = 0;
  while (at < ranks.size()) {
    const size_t comma = std::min(ranks.find(',', at), ranks.size());
    const std::string part(ranks.substr(at, comma - at));
    const size_t dash = part.find('-');
    try {
      const long long first = std::stoll(part.substr(0, dash));
      const long long last = dash == std::string::npos ? first : std::stoll(part.substr(dash + 1));
      for (long long r = first; r <= last && out.size() < (1u << 20); ++r)
        out += (out.size() > 1 ? ", " : "") + std::to_string(r);
    } catch (const std::exception &) {
      return "[]";
    }
    at = comma + 1;
  }
  return out + "]";
}

std::string kineto_name(const prof_event &e, const KinetoPlace &place, std::string_view name) {
  if (!on_device(place)) return std::string(name);
  // "Memset (NAME)", unless NAME already begins with what it is.
  const auto called = [&](std::string_view kind) {
    if (name.starts_with(kind)) return std::string(name);
    return std::string(kind) + " (" + std::string(name) + ")";
  };
  switch (e.kind) {
  case PROF_CATEGORY_COMMUNICATION:
    if (name.starts_with(kCollectiveKernelPrefix)) return std::string(name);
    return std::string(kCollectiveKernelPrefix) + std::string(name);
  case PROF_CATEGORY_MEMCPY:
    return called("Memcpy");
  case PROF_CATEGORY_MEMCPY_HTOD:
    return called("Memcpy HtoD");
  case PROF_CATEGORY_MEMCPY_DTOH:
    return called("Memcpy DtoH");
  case PROF_CATEGORY_MEMCPY_DTOD:
    return called("Memcpy DtoD");
  case PROF_CATEGORY_MEMCPY_PTOP:
    return called("Memcpy PtoP");
  case PROF_CATEGORY_MEMSET:
    return called("Memset");
  case PROF_CATEGORY_SYNC:
    if (name.find("Sync") != std::string_view::npos) return std::string(name);
    return "Sync (" + std::string(name) + ")";
  default:
    return std::string(name);
  }
}

std::string kineto_category(const ExportHost &host, const prof_event &e, const KinetoPlace &place) {
  const std::string_view category = host.string(e.category);
  switch (e.kind) {
  case PROF_CATEGORY_OPERATOR:
    return kf::kCpuOp;
  case PROF_CATEGORY_ANNOTATION:
    if (on_device(place)) return kf::kGpuUserAnnotation;
    return category == "python" ? kf::kPythonFunction : kf::kUserAnnotation;
  case PROF_CATEGORY_COMMUNICATION:
    // A collective running on a device is a kernel there (NCCL's are).
    if (on_device(place)) return kf::kKernel;
    return host.string(e.name).starts_with("c10d::") ? kf::kCpuOp : kf::kUserAnnotation;
  case PROF_CATEGORY_RUNTIME_API:
    return kf::kCudaRuntime;
  case PROF_CATEGORY_DRIVER_API:
    return kf::kCudaDriver;
  case PROF_CATEGORY_KERNEL:
    return kf::kKernel;
  case PROF_CATEGORY_MEMCPY:
  case PROF_CATEGORY_MEMCPY_HTOD:
  case PROF_CATEGORY_MEMCPY_DTOH:
  case PROF_CATEGORY_MEMCPY_DTOD:
  case PROF_CATEGORY_MEMCPY_PTOP:
    return kf::kGpuMemcpy;
  case PROF_CATEGORY_MEMSET:
    return kf::kGpuMemset;
  case PROF_CATEGORY_SYNC:
    // A wait on the host is a runtime call (a GCU driver's synchronize calls).
    return on_device(place) ? kf::kCudaSync : kf::kCudaRuntime;
  case PROF_CATEGORY_MEMORY:
    return "cpu_instant_event";
  case PROF_CATEGORY_OVERHEAD:
    return "overhead";
  default:
    if (!category.empty()) return std::string(category);
    return e.type == PROF_EVENT_INSTANT ? "cpu_instant_event" : "Trace";
  }
}

void append_kineto_args(std::string &out, const ExportHost &host, const prof_event &e,
                        const KinetoPlace &place) {
  const Args a(host, e);
  ArgsWriter w(out);
  switch (e.kind) {
  case PROF_CATEGORY_OPERATOR:
    operator_args(w, a);
    if (a.find("communicator") == nullptr) return;
    [[fallthrough]];
  case PROF_CATEGORY_COMMUNICATION:
    if (on_device(place)) device_args(w, a, e, place);
    communication_args(w, a);
    return;
  case PROF_CATEGORY_SYNC:
    if (on_device(place)) {
      device_args(w, a, e, place);
      return;
    }
    [[fallthrough]];
  case PROF_CATEGORY_RUNTIME_API:
  case PROF_CATEGORY_DRIVER_API:
    if (e.id != 0) w.integer(kf::kCorrelation, static_cast<int64_t>(e.id));
    return;
  case PROF_CATEGORY_KERNEL:
  case PROF_CATEGORY_MEMCPY:
  case PROF_CATEGORY_MEMCPY_HTOD:
  case PROF_CATEGORY_MEMCPY_DTOH:
  case PROF_CATEGORY_MEMCPY_DTOD:
  case PROF_CATEGORY_MEMCPY_PTOP:
  case PROF_CATEGORY_MEMSET:
    device_args(w, a, e, place);
    return;
  case PROF_CATEGORY_MEMORY:
    if (e.type == PROF_EVENT_INSTANT) {
      memory_args(w, a, place);
      return;
    }
    break;
  default:
    break;
  }
  for (const auto &[name, arg] : a.all()) {
    if (arg.type == PROF_ARG_INT) {
      w.integer(name, arg.value.i);
    } else if (arg.type == PROF_ARG_UINT) {
      w.key(name);
      append_uint(out, arg.value.u);
    } else if (std::string number;
               arg.type == PROF_ARG_DOUBLE && append_double(number, arg.value.d)) {
      w.raw(name, number);
    } else {
      w.string(name, host.arg_text(arg));
    }
  }
}

} // namespace prof::kineto
