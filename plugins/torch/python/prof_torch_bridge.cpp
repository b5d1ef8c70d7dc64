// _prof_torch: the torch source's bridge into PyTorch, a Python extension
// built against the libtorch prof was built with (Debian's libtorch-dev).
// install() registers a global RecordFunction callback whose start and end
// hand each call, as plain C structs, to the torch source preloaded into the
// process (../recorder_api.h); name_group() names a process group to it.
// Once the source wants memory, a CPU allocator that reports each block
// around torch's own takes its place. Nothing here records: the source
// decides and emits.
#include "recorder_api.h"

#include <ATen/core/ivalue.h>
#include <ATen/record_function.h>
#include <c10/core/CPUAllocator.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/utils/pybind.h>

#include <dlfcn.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include <string>
#include <string_view>

namespace {

const prof_torch_recorder_api *g_api = nullptr;

struct OpenCall : at::ObserverContext {
  prof_torch_open_call open{};
};

/// torch's CPU allocator, each block it gives and takes back reported.
/// Its blocks keep torch's context (the block itself) and are freed by
/// torch's deleter after the report, so it wraps only an allocator whose
/// blocks are their own context and which names its deleter.
class ReportingAllocator final : public c10::Allocator {
public:
  static bool can_wrap(c10::Allocator *inner) { return inner && inner->raw_deleter() != nullptr; }
  explicit ReportingAllocator(c10::Allocator *inner)
      : inner_(inner), inner_delete_(inner->raw_deleter()) {}
  // 1.x declares allocate() const, 2.3 and later not, and adds copy_data():
  // each torch overrides the one it declares, without `override`.
  c10::DataPtr allocate(size_t bytes) const { return report(inner_->allocate(bytes), bytes); }
  c10::DataPtr allocate(size_t bytes) { return report(inner_->allocate(bytes), bytes); }
  void copy_data(void *dest, const void *src, std::size_t count) const {
    std::memcpy(dest, src, count);
  }
  c10::DeleterFnPtr raw_deleter() const override { return &report_and_delete; }

private:
  c10::DataPtr report(c10::DataPtr block, size_t bytes) const {
    void *data = block.get();
    if (data == nullptr || block.get_context() != data || block.get_deleter() != inner_delete_)
      return block; // not one of the plain blocks: left as it is, unreported
    const c10::Device device = block.device();
    block.release_context();
    g_api->allocated(data, bytes);
    return {data, data, &report_and_delete, device};
  }
  static void report_and_delete(void *data) {
    if (data != nullptr) g_api->freed(data);
    s_inner_delete(data);
  }
  c10::Allocator *inner_;
  c10::DeleterFnPtr inner_delete_;

public:
  static inline c10::DeleterFnPtr s_inner_delete = nullptr;
};

/// Puts the reporting allocator in torch's CPU allocator's place, once.
void report_cpu_memory() {
  static std::once_flag once;
  std::call_once(once, [] {
    c10::Allocator *inner = c10::GetCPUAllocator();
    if (!ReportingAllocator::can_wrap(inner)) {
      g_api->warn("this torch's CPU allocator cannot be followed: no tensor memory is recorded");
      return;
    }
    ReportingAllocator::s_inner_delete = inner->raw_deleter();
    static ReportingAllocator reporting(inner); // lives as long as torch's blocks
    // The highest priority: no allocator set later with a default one replaces it.
    c10::SetCPUAllocator(&reporting, 255);
  });
}

/// Whether `name` is a backend's collective ("gloo:all_reduce"): a
/// backend's name, one colon, the operation.
bool backend_collective(std::string_view name) {
  const size_t colon = name.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  if (colon + 1 < name.size() && name[colon + 1] == ':') return false; // aten::, c10d::
  for (const char c : name.substr(0, colon))
    if (c < 'a' || c > 'z') return false;
  return true;
}

/// Whether `name` is a kernel torch.compile's Inductor generated for the
/// CPU ("cpp_fused_addmm_relu_0"), which prof_torch.py records as a range.
bool inductor_kernel(std::string_view name) { return name.substr(0, 10) == "cpp_fused_"; }

/// The process group among a c10d operator's inputs, nullptr if none.
c10d::ProcessGroup *group_of(const c10::IValue &input) {
  if (!input.isObject()) return nullptr;
  const auto &object = input.toObjectRef();
  if (object.slots().empty() || !object.getSlot(0).isCapsule()) return nullptr;
  return dynamic_cast<c10d::ProcessGroup *>(object.getSlot(0).toCapsule().get());
}

/// PyTorch's own count of the group's operations (gloo and nccl keep one
/// from the group's making, the same on every member), 0 if it keeps none.
uint64_t group_sequence(c10d::ProcessGroup *group) {
  try {
    return group->getSequenceNumberForGroup();
  } catch (...) {
    return 0;
  }
}

void name_unknown_group(c10d::ProcessGroup *group) {
  if (g_api->knows_group(group)) return;
  prof_torch_group facts{};
  facts.group = group;
  facts.sequence_base = PROF_TORCH_SEQUENCE_UNKNOWN;
  std::string backend = "unknown";
  try {
    backend = group->getBackendName();
  } catch (...) {
  }
  facts.backend = backend.c_str();
  facts.rank = group->getRank();
  facts.size = group->getSize();
  g_api->name_group(&facts);
}

/// Elements, bytes and the first tensor's identity and type over the tensors
/// of `input` (a tensor or a list holding tensors).
struct TensorSum {
  int64_t elements = 0, bytes = 0, tensors = 0;
  uint64_t first = 0;
  std::string dtype;
  void add(const at::Tensor &tensor) {
    if (!tensor.defined()) return;
    if (first == 0) {
      first = reinterpret_cast<uintptr_t>(tensor.unsafeGetTensorImpl());
      dtype = std::string(tensor.dtype().name());
    }
    ++tensors;
    elements += tensor.numel();
    bytes += tensor.numel() * static_cast<int64_t>(tensor.element_size());
  }
  void add(const c10::IValue &input) {
    if (input.isTensor()) {
      add(input.toTensor());
    } else if (input.isList()) {
      for (const c10::IValue &element : input.toListRef())
        if (element.isTensor())
          add(element.toTensor());
        else if (element.isList())
          add(element);
    }
  }
};

/// Appends "[2, 8]" for a tensor, "[]" otherwise; and its type.
void describe(const c10::IValue &input, std::string &shapes, std::string &types) {
  if (input.isTensor() && input.toTensor().defined()) {
    const at::Tensor &tensor = input.toTensor();
    shapes += '[';
    bool first = true;
    for (const int64_t size : tensor.sizes()) {
      if (!first) shapes += ", ";
      shapes += std::to_string(size);
      first = false;
    }
    shapes += ']';
    types += std::string(tensor.dtype().name());
    return;
  }
  shapes += "[]";
  if (input.isTensorList())
    types += "TensorList";
  else if (input.isScalar())
    types += "Scalar";
  else if (input.isNone())
    types += "";
  else
    types += input.tagKind();
}

std::unique_ptr<at::ObserverContext> on_begin(const at::RecordFunction &fn) {
  const bool recording = g_api->recording() != 0;
  static std::atomic<bool> memory_reported{false};
  if (recording && !memory_reported.load(std::memory_order_relaxed) && g_api->wants_memory()) {
    report_cpu_memory();
    memory_reported.store(true, std::memory_order_relaxed);
  }
  prof_torch_call call{};
  call.name = fn.name();
  const std::string_view name = call.name;
  // Not recording: only c10d operators, whose groups count their operations.
  if (!recording && (fn.scope() != at::RecordScope::FUNCTION || name.substr(0, 6) != "c10d::"))
    return nullptr;
  switch (fn.scope()) {
  case at::RecordScope::FUNCTION:
    call.kind = PROF_TORCH_OPERATOR;
    break;
  case at::RecordScope::BACKWARD_FUNCTION:
    call.kind = PROF_TORCH_BACKWARD_NODE;
    break;
  default:
    call.kind = backend_collective(name) ? PROF_TORCH_COLLECTIVE
                : inductor_kernel(name)  ? PROF_TORCH_OPERATOR
                                         : PROF_TORCH_USER_RANGE;
  }
  call.sequence = fn.seqNr();
  call.thread = fn.threadId();
  call.forward_thread = fn.forwardThreadId();
  call.elements = call.bytes = -1;
  std::string shapes, types;
  TensorSum sum;
  const bool communication = call.kind == PROF_TORCH_COLLECTIVE ||
                             (call.kind == PROF_TORCH_OPERATOR && name.substr(0, 6) == "c10d::");
  const bool with_shapes = recording && call.kind != PROF_TORCH_USER_RANGE && g_api->wants_shapes();
  if (communication || with_shapes) {
    const auto inputs = fn.inputs();
    if (with_shapes) {
      shapes = "[";
      types = "[";
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      try {
        const c10::IValue &input = inputs[i];
        if (communication) {
          if (call.group == nullptr)
            if (c10d::ProcessGroup *group = group_of(input)) {
              name_unknown_group(group);
              call.group = group;
              call.group_sequence = group_sequence(group);
            }
          sum.add(input);
        }
        if (with_shapes) {
          if (i > 0) {
            shapes += ", ";
            types += ", ";
          }
          describe(input, shapes, types);
        }
      } catch (const std::exception &) {
        // A tensor without sizes (nested, some sparse layouts): said as unknown.
        if (with_shapes) shapes += "[?]";
      }
    }
    if (communication && sum.tensors > 0) {
      call.elements = sum.elements;
      call.bytes = sum.bytes;
      call.first_tensor = sum.first;
      call.dtype = sum.dtype.c_str();
    }
    if (with_shapes) {
      shapes += ']';
      types += ']';
      call.shapes = shapes.c_str();
      call.types = types.c_str();
    }
  }
  auto open = std::make_unique<OpenCall>();
  g_api->begin(&call, &open->open);
  if (!recording) return nullptr;
  return open;
}

void on_end(const at::RecordFunction &, at::ObserverContext *context) {
  if (context != nullptr) g_api->end(&static_cast<OpenCall *>(context)->open);
}

void install() {
  if (g_api != nullptr) return;
  union {
    void *object;
    prof_torch_recorder_fn function;
  } symbol;
  symbol.object = dlsym(RTLD_DEFAULT, PROF_TORCH_RECORDER_SYMBOL);
  if (symbol.object == nullptr)
    throw std::runtime_error("prof's torch source is not loaded in this process");
  const prof_torch_recorder_api *api = symbol.function();
  if (api == nullptr || api->version != PROF_TORCH_RECORDER_VERSION)
    throw std::runtime_error("prof's torch source is of another version");
  g_api = api;
  at::addGlobalCallback(
      at::RecordFunctionCallback(&on_begin, &on_end)
          .needsInputs(true)
          .needsIds(true)
          .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION,
                   at::RecordScope::TORCHSCRIPT_FUNCTION, at::RecordScope::USER_SCOPE}));
}

void name_group(const c10::intrusive_ptr<c10d::ProcessGroup> &group, const std::string &name,
                const std::string &backend, const std::vector<int64_t> &ranks,
                uint64_t sequence_base) {
  if (g_api == nullptr || !group) return;
  prof_torch_group facts{};
  facts.group = group.get();
  facts.name = name.c_str();
  facts.backend = backend.c_str();
  facts.rank = group->getRank();
  facts.size = group->getSize();
  facts.ranks = ranks.data();
  facts.rank_count = ranks.size();
  facts.sequence_base = sequence_base;
  g_api->name_group(&facts);
}

} // namespace

PYBIND11_MODULE(_prof_torch, module) {
  module.doc() = "prof's torch source: its bridge into PyTorch's RecordFunction";
  module.def("install", &install, "records PyTorch's calls into prof's torch source");
  module.def("name_group", &name_group, "names a process group to prof's torch source",
             pybind11::arg("group"), pybind11::arg("name"), pybind11::arg("backend"),
             pybind11::arg("ranks"), pybind11::arg("sequence_base") = PROF_TORCH_SEQUENCE_UNKNOWN);
}
