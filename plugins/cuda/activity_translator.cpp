#include "activity_translator.hpp"

#include <prof/correlation.hpp>
#include <prof/event.hpp>

#include <array>
#include <cstdlib>
#include <cxxabi.h>

namespace prof::cuda {
namespace {

std::string dims(int32_t x, int32_t y, int32_t z) {
  return std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z);
}

const char *sync_name(CUpti_ActivitySynchronizationType type) {
  switch (type) {
  case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
    return "Event synchronize";
  case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
    return "Stream wait event";
  case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
    return "Stream synchronize";
  case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
    return "Context synchronize";
  default:
    return "Synchronize";
  }
}

// A small fixed list of arguments, built in place.
struct Args {
  std::array<prof_arg, PROF_MAX_ARGS> items{};
  uint32_t count = 0;
  void add(prof_arg a) {
    if (count < items.size()) items[count++] = a;
  }
  std::span<const prof_arg> span() const { return {items.data(), count}; }
};

} // namespace

prof_category copy_category(uint8_t copy_kind) {
  switch (copy_kind) {
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
    return PROF_CATEGORY_MEMCPY_HTOD;
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
  case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
    return PROF_CATEGORY_MEMCPY_DTOH;
  case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
  case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    return PROF_CATEGORY_MEMCPY_DTOD;
  case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
    return PROF_CATEGORY_MEMCPY_PTOP;
  default: // host to host, unknown
    return PROF_CATEGORY_MEMCPY;
  }
}

const char *memory_kind_name(uint32_t memory_kind) {
  switch (memory_kind) {
  case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
    return "pageable";
  case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
    return "pinned";
  case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    return "device";
  case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
    return "array";
  case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    return "managed";
  case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
    return "device-static";
  case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
    return "managed-static";
  default:
    return "unknown";
  }
}

bool is_device_memory(uint32_t memory_kind) {
  return memory_kind == CUPTI_ACTIVITY_MEMORY_KIND_DEVICE ||
         memory_kind == CUPTI_ACTIVITY_MEMORY_KIND_ARRAY ||
         memory_kind == CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC;
}

std::string api_display_name(std::string name) {
  // "cudaMalloc_v3020" -> "cudaMalloc"; "cudaMemcpy_ptds" keeps its suffix.
  const auto underscore = name.rfind("_v");
  if (underscore != std::string::npos && underscore + 2 < name.size() &&
      name.find_first_not_of("0123456789", underscore + 2) == std::string::npos)
    name.resize(underscore);
  return name;
}

ActivityTranslator::ActivityTranslator(const Host &host, CudaTracks &tracks,
                                       ApiNameLookup api_names, int pid)
    : host_(host), tracks_(tracks), api_names_(std::move(api_names)), pid_(pid), flows_(host) {
  keys_ = Keys{text("grid"),
               text("block"),
               text("registers_per_thread"),
               text("static_shared_memory"),
               text("dynamic_shared_memory"),
               text("stream"),
               text("device"),
               text("context"),
               text("graph"),
               text("graph_node"),
               text(PROF_MEMORY_ARG_BYTES),
               text("src_kind"),
               text("dst_kind"),
               text("src_device"),
               text("dst_device"),
               text("value"),
               text(PROF_MEMORY_ARG_MEMORY),
               text(PROF_MEMORY_ARG_OPERATION),
               text(PROF_MEMORY_ARG_ADDRESS),
               text(PROF_MEMORY_ARG_CORRELATION),
               text("result"),
               text("external_kind"),
               text("external_id"),
               text("sync_type"),
               text("event")};
  kernel_category_ = text("CUDA kernel");
  copy_category_ = text("CUDA memcpy");
  set_category_ = text("CUDA memset");
  memory_category_ = text("CUDA memory");
  sync_category_ = text("CUDA sync");
  runtime_category_ = text("CUDA runtime API");
  driver_category_ = text("CUDA driver API");
  graph_category_ = text("CUDA graph");
}

void ActivityTranslator::translate(const CUpti_Activity &record) {
  ++translated_;
  switch (record.kind) {
  case CUPTI_ACTIVITY_KIND_KERNEL:
  case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    return kernel(reinterpret_cast<const CUpti_ActivityKernel10 &>(record));
  case CUPTI_ACTIVITY_KIND_MEMCPY:
    return copy(reinterpret_cast<const CUpti_ActivityMemcpy6 &>(record));
  case CUPTI_ACTIVITY_KIND_MEMCPY2:
    return peer_copy(reinterpret_cast<const CUpti_ActivityMemcpyPtoP4 &>(record));
  case CUPTI_ACTIVITY_KIND_MEMSET:
    return set(reinterpret_cast<const CUpti_ActivityMemset4 &>(record));
  case CUPTI_ACTIVITY_KIND_MEMORY2:
    return memory(reinterpret_cast<const CUpti_ActivityMemory4 &>(record));
  case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
    return sync(reinterpret_cast<const CUpti_ActivitySynchronization2 &>(record));
  case CUPTI_ACTIVITY_KIND_RUNTIME:
    return api(reinterpret_cast<const CUpti_ActivityAPI &>(record), CUPTI_CB_DOMAIN_RUNTIME_API);
  case CUPTI_ACTIVITY_KIND_DRIVER:
  case CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API:
    return api(reinterpret_cast<const CUpti_ActivityAPI &>(record), CUPTI_CB_DOMAIN_DRIVER_API);
  case CUPTI_ACTIVITY_KIND_GRAPH_TRACE:
    return graph(reinterpret_cast<const CUpti_ActivityGraphTrace2 &>(record));
  case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
    return external(reinterpret_cast<const CUpti_ActivityExternalCorrelation &>(record));
  case CUPTI_ACTIVITY_KIND_CONTEXT: {
    const auto &context = reinterpret_cast<const CUpti_ActivityContext3 &>(record);
    context_devices_[context.contextId] = context.deviceId;
    return;
  }
  default:
    --translated_;
    ++ignored_;
    return;
  }
}

void ActivityTranslator::work(prof_track_id track, uint64_t start, uint64_t end,
                              prof_string_id name, prof_string_id category, uint32_t correlation_id,
                              prof_category kind, std::span<const prof_arg> args) {
  if (track == 0 || end < start) return;
  const uint64_t correlation = session_correlation(pid_, correlation_id);
  const uint64_t begin = session_ts(start);
  host_.slice(track, begin, end - start, name, category, correlation, kind, args);
  if (flows_on_ && correlation != 0) flows_.work(correlation, track, begin);
}

prof_string_id ActivityTranslator::text(const std::string &value) {
  if (auto it = texts_.find(value); it != texts_.end()) return it->second;
  const prof_string_id id = host_.intern(value);
  if (texts_.size() < 65536) texts_.emplace(value, id); // bounded: names of every kernel fit
  return id;
}

prof_string_id ActivityTranslator::kernel_name(const char *mangled) {
  if (mangled == nullptr) return text("kernel");
  if (auto it = kernel_names_.find(mangled); it != kernel_names_.end()) return it->second;
  int status = 0;
  char *demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  const prof_string_id id = text(status == 0 && demangled ? demangled : mangled);
  std::free(demangled);
  kernel_names_.emplace(mangled, id);
  return id;
}

prof_string_id ActivityTranslator::api_name(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  const uint64_t key = (static_cast<uint64_t>(domain) << 32) | cbid;
  if (auto it = api_names_cache_.find(key); it != api_names_cache_.end()) return it->second;
  std::string name = api_names_ ? api_names_(domain, cbid) : std::string();
  if (name.empty()) name = "CUDA API " + std::to_string(cbid);
  const prof_string_id id = text(api_display_name(std::move(name)));
  api_names_cache_.emplace(key, id);
  return id;
}

void ActivityTranslator::kernel(const CUpti_ActivityKernel10 &r) {
  context_devices_[r.contextId] = r.deviceId;
  Args args;
  args.add(arg_string(keys_.grid, text(dims(r.gridX, r.gridY, r.gridZ))));
  args.add(arg_string(keys_.block, text(dims(r.blockX, r.blockY, r.blockZ))));
  args.add(arg_uint(keys_.registers, r.registersPerThread));
  args.add(arg_uint(keys_.static_shared, static_cast<uint32_t>(r.staticSharedMemory)));
  args.add(arg_uint(keys_.dynamic_shared, static_cast<uint32_t>(r.dynamicSharedMemory)));
  args.add(arg_uint(keys_.stream, r.streamId));
  args.add(arg_uint(keys_.context, r.contextId));
  args.add(arg_uint(keys_.device, r.deviceId));
  if (r.graphId != 0) args.add(arg_uint(keys_.graph, r.graphId));
  if (r.graphNodeId != 0) args.add(arg_uint(keys_.graph_node, r.graphNodeId));
  work(tracks_.stream(r.deviceId, r.streamId), r.start, r.end, kernel_name(r.name),
       kernel_category_, r.correlationId, PROF_CATEGORY_KERNEL, args.span());
}

void ActivityTranslator::copy(const CUpti_ActivityMemcpy6 &r) {
  context_devices_[r.contextId] = r.deviceId;
  const prof_category kind = copy_category(r.copyKind);
  const std::string direction = copy_direction(kind);
  Args args;
  args.add(arg_uint(keys_.bytes, r.bytes));
  args.add(arg_string(keys_.src_kind, text(memory_kind_name(r.srcKind))));
  args.add(arg_string(keys_.dst_kind, text(memory_kind_name(r.dstKind))));
  args.add(arg_uint(keys_.stream, r.streamId));
  args.add(arg_uint(keys_.context, r.contextId));
  args.add(arg_uint(keys_.device, r.deviceId));
  if (r.graphNodeId != 0) args.add(arg_uint(keys_.graph_node, r.graphNodeId));
  work(tracks_.stream(r.deviceId, r.streamId), r.start, r.end,
       text(direction.empty() ? "Memcpy" : "Memcpy " + direction), copy_category_, r.correlationId,
       kind, args.span());
}

void ActivityTranslator::peer_copy(const CUpti_ActivityMemcpyPtoP4 &r) {
  Args args;
  args.add(arg_uint(keys_.bytes, r.bytes));
  args.add(arg_uint(keys_.src_device, r.srcDeviceId));
  args.add(arg_uint(keys_.dst_device, r.dstDeviceId));
  args.add(arg_string(keys_.src_kind, text(memory_kind_name(r.srcKind))));
  args.add(arg_string(keys_.dst_kind, text(memory_kind_name(r.dstKind))));
  args.add(arg_uint(keys_.stream, r.streamId));
  args.add(arg_uint(keys_.device, r.deviceId));
  if (r.graphNodeId != 0) args.add(arg_uint(keys_.graph_node, r.graphNodeId));
  work(tracks_.stream(r.deviceId, r.streamId), r.start, r.end, text("Memcpy PtoP"), copy_category_,
       r.correlationId, PROF_CATEGORY_MEMCPY_PTOP, args.span());
}

void ActivityTranslator::set(const CUpti_ActivityMemset4 &r) {
  context_devices_[r.contextId] = r.deviceId;
  Args args;
  args.add(arg_uint(keys_.bytes, r.bytes));
  args.add(arg_uint(keys_.value, r.value));
  args.add(arg_string(keys_.memory, text(memory_kind_name(r.memoryKind))));
  args.add(arg_uint(keys_.stream, r.streamId));
  args.add(arg_uint(keys_.context, r.contextId));
  args.add(arg_uint(keys_.device, r.deviceId));
  if (r.graphNodeId != 0) args.add(arg_uint(keys_.graph_node, r.graphNodeId));
  work(tracks_.stream(r.deviceId, r.streamId), r.start, r.end, text("Memset"), set_category_,
       r.correlationId, PROF_CATEGORY_MEMSET, args.span());
}

void ActivityTranslator::memory(const CUpti_ActivityMemory4 &r) {
  const bool alloc = r.memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
  if (!alloc && r.memoryOperationType != CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE) return;
  const prof_track_id track = tracks_.memory(r.deviceId);
  if (track == 0) return;
  const uint64_t ts = session_ts(r.timestamp);
  Args args;
  args.add(arg_string(keys_.operation, text(alloc ? "alloc" : "free")));
  args.add(arg_uint(keys_.address, r.address));
  args.add(arg_uint(keys_.bytes, r.bytes));
  args.add(arg_string(keys_.memory, text(memory_kind_name(r.memoryKind))));
  if (const uint64_t call = session_correlation(pid_, r.correlationId); call != 0)
    args.add(arg_uint(keys_.correlation, call));
  if (r.streamId != CUPTI_INVALID_STREAM_ID && r.isAsync)
    args.add(arg_uint(keys_.stream, r.streamId));
  host_.instant(track, ts, text(alloc ? "Allocation" : "Free"), memory_category_,
                PROF_CATEGORY_MEMORY, args.span());
  if (!is_device_memory(r.memoryKind)) return;
  if (const auto used = memory_used_.follow(r.deviceId, alloc, r.address, r.bytes))
    host_.counter(tracks_.counter(r.deviceId, PROF_MEMORY_USED_TRACK, "bytes"), ts,
                  static_cast<double>(*used));
}

void ActivityTranslator::sync(const CUpti_ActivitySynchronization2 &r) {
  if (r.end < r.start) return;
  // A wait names its context, not its device: the context's device is
  // known from the context's record or its work.
  const uint32_t stream =
      r.streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? UINT32_MAX : r.streamId;
  const auto context = context_devices_.find(r.contextId);
  const uint32_t device = context != context_devices_.end() ? context->second : 0;
  Args args;
  if (stream != UINT32_MAX) args.add(arg_uint(keys_.stream, stream));
  args.add(arg_uint(keys_.context, r.contextId));
  if (r.cudaEventId != CUPTI_SYNCHRONIZATION_INVALID_VALUE)
    args.add(arg_uint(keys_.event, r.cudaEventId));
  host_.slice(tracks_.sync(device, stream), session_ts(r.start), r.end - r.start,
              text(sync_name(r.type)), sync_category_, session_correlation(pid_, r.correlationId),
              PROF_CATEGORY_SYNC, args.span());
}

void ActivityTranslator::api(const CUpti_ActivityAPI &r, CUpti_CallbackDomain domain) {
  if (r.end < r.start) return;
  const prof_track_id track = tracks_.thread(r.threadId);
  if (track == 0) return;
  const uint64_t correlation = session_correlation(pid_, r.correlationId);
  Args args;
  if (r.returnValue != 0) args.add(arg_int(keys_.result, r.returnValue));
  if (auto it = external_.find(r.correlationId); it != external_.end()) {
    args.add(arg_uint(keys_.external_kind, it->second.first));
    args.add(arg_uint(keys_.external_id, it->second.second));
    external_.erase(it);
  }
  const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  const uint64_t begin = session_ts(r.start);
  host_.slice(track, begin, r.end - r.start,
              r.kind == CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API ? text("Internal launch")
                                                                : api_name(domain, r.cbid),
              runtime ? runtime_category_ : driver_category_, correlation,
              runtime ? PROF_CATEGORY_RUNTIME_API : PROF_CATEGORY_DRIVER_API, args.span());
  if (flows_on_ && correlation != 0) flows_.call(correlation, track, begin);
}

void ActivityTranslator::graph(const CUpti_ActivityGraphTrace2 &r) {
  Args args;
  args.add(arg_uint(keys_.graph, r.graphId));
  args.add(arg_uint(keys_.stream, r.streamId));
  args.add(arg_uint(keys_.device, r.deviceId));
  work(tracks_.stream(r.deviceId, r.streamId), r.start, r.end,
       text("CUDA graph " + std::to_string(r.graphId)), graph_category_, r.correlationId,
       PROF_CATEGORY_OTHER, args.span());
}

void ActivityTranslator::external(const CUpti_ActivityExternalCorrelation &r) {
  // Bounded: ids whose call record never comes are forgotten.
  if (external_.size() >= 65536) external_.clear();
  external_[r.correlationId] = {static_cast<uint32_t>(r.externalKind), r.externalId};
}

} // namespace prof::cuda
