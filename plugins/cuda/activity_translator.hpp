// Turns CUPTI activity records into prof events: kernels, copies and sets on
// their stream's row, waits, API calls on their thread with flows to the
// device work they queued, allocations as memory events with a "Memory
// used" counter per device, and CUDA graph launches. Knows CUPTI only
// through its headers, so tests feed it records laid out with the real
// structs.
#ifndef PROF_PLUGINS_CUDA_ACTIVITY_TRANSLATOR_HPP
#define PROF_PLUGINS_CUDA_ACTIVITY_TRANSLATOR_HPP

#include "cuda_tracks.hpp"

#include <cupti.h>

#include <prof/device_memory_usage.hpp>
#include <prof/flow_matcher.hpp>
#include <prof/plugin.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>

namespace prof::cuda {

/// An API function's name ("cudaLaunchKernel_v7000"), as cuptiGetCallbackName gives it.
using ApiNameLookup = std::function<std::string(CUpti_CallbackDomain, CUpti_CallbackId)>;

class ActivityTranslator {
public:
  ActivityTranslator(const Host &host, CudaTracks &tracks, ApiNameLookup api_names, int pid);

  /// CUPTI timestamps minus `offset_ns` are session nanoseconds (0 when
  /// CUPTI reads prof's clock through its timestamp callback).
  void set_clock_offset(int64_t offset_ns) { clock_offset_ = offset_ns; }
  /// Whether API calls are traced, so device work gets flows from them.
  void set_flows(bool on) { flows_on_ = on; }

  /// Translates one record. One thread at a time.
  void translate(const CUpti_Activity &record);

  uint64_t translated() const { return translated_; }
  /// Records of kinds the source does not show (device, context, ...).
  uint64_t ignored() const { return ignored_; }

private:
  struct Keys {
    prof_string_id grid, block, registers, static_shared, dynamic_shared, stream, device, context,
        graph, graph_node, bytes, src_kind, dst_kind, src_device, dst_device, value, memory,
        operation, address, correlation, result, external_kind, external_id, sync_type, event;
  };
  uint64_t session_ts(uint64_t cupti_ts) const {
    return static_cast<uint64_t>(static_cast<int64_t>(cupti_ts) - clock_offset_);
  }
  void kernel(const CUpti_ActivityKernel10 &r);
  void copy(const CUpti_ActivityMemcpy6 &r);
  void peer_copy(const CUpti_ActivityMemcpyPtoP4 &r);
  void set(const CUpti_ActivityMemset4 &r);
  void memory(const CUpti_ActivityMemory4 &r);
  void sync(const CUpti_ActivitySynchronization2 &r);
  void api(const CUpti_ActivityAPI &r, CUpti_CallbackDomain domain);
  void graph(const CUpti_ActivityGraphTrace2 &r);
  void external(const CUpti_ActivityExternalCorrelation &r);
  /// Emits device work and, when its call is traced, the flow's device end.
  void work(prof_track_id track, uint64_t start, uint64_t end, prof_string_id name,
            prof_string_id category, uint32_t correlation_id, prof_category kind,
            std::span<const prof_arg> args);
  prof_string_id kernel_name(const char *mangled);
  prof_string_id api_name(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
  /// Interned once: the host's intern takes a lock the application's own
  /// annotations share, and grids, kinds and names repeat with every record.
  prof_string_id text(const std::string &value);

  const Host &host_;
  CudaTracks &tracks_;
  ApiNameLookup api_names_;
  const int pid_;
  int64_t clock_offset_ = 0;
  bool flows_on_ = true;
  FlowMatcher flows_;
  Keys keys_;
  prof_string_id kernel_category_, copy_category_, set_category_, memory_category_, sync_category_,
      runtime_category_, driver_category_, graph_category_;
  std::unordered_map<const char *, prof_string_id> kernel_names_;
  std::unordered_map<uint64_t, prof_string_id> api_names_cache_;
  std::unordered_map<std::string, prof_string_id> texts_;
  // The external id (and its kind) each API call ran under, until the call's record comes.
  std::unordered_map<uint32_t, std::pair<uint32_t, uint64_t>> external_;
  DeviceMemoryUsage memory_used_;
  std::map<uint32_t, uint32_t> context_devices_; // context -> device
  uint64_t translated_ = 0;
  uint64_t ignored_ = 0;
};

/// "HtoD", "DtoH", ... for a CUPTI copy kind, and its prof category.
prof_category copy_category(uint8_t copy_kind);
/// "device", "pinned", "pageable", ... for a CUPTI memory kind.
const char *memory_kind_name(uint32_t memory_kind);
/// Whether memory of this CUPTI kind lives on the device (counts toward "Memory used").
bool is_device_memory(uint32_t memory_kind);
/// An API function's display name: CUPTI's without its version suffix ("cudaMalloc_v3020").
std::string api_display_name(std::string name);

} // namespace prof::cuda

#endif
