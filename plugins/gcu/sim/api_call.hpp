// One traced runtime call: its correlation id (which the device records it
// queues carry), and its report to the captures as it returns.
#ifndef PROF_GCUSIM_API_CALL_HPP
#define PROF_GCUSIM_API_CALL_HPP

#include "gcusim/gcu_runtime.h"
#include "host_clock.hpp"
#include "simulator.hpp"

namespace prof::gcusim {

class ApiCall {
public:
  explicit ApiCall(ApiFunction function)
      : simulator_(Simulator::instance()), function_(function), begin_ns_(host_now_ns()),
        correlation_id_(simulator_.next_correlation_id()) {}

  /// The id the device work this call queues carries; asking for it marks
  /// that the call queued work, so its report ties to that work.
  uint64_t work_correlation_id() noexcept {
    reports_id_ = true;
    return correlation_id_;
  }
  /// Records an allocation or free the call made; the call's report then
  /// carries the correlation id the memory record does.
  void record_memory(const BlockChange &change) {
    if (simulator_.device(change.device).record_memory(change, correlation_id_)) reports_id_ = true;
  }
  /// The device the call addresses (-1, the default, for none).
  void set_device(int32_t device) noexcept { device_ = device; }
  /// Reports the call to the captures that selected it; returns `result`.
  gcuError_t finish(gcuError_t result) {
    CaptureRegistry &captures = simulator_.captures();
    if (captures.active()) {
      prof_gcu_api_record record{};
      record.struct_size = sizeof(prof_gcu_api_record);
      record.domain = kRuntimeDomain;
      record.function = function_;
      record.device = device_;
      record.result = result;
      record.begin_ns = begin_ns_;
      record.end_ns = host_now_ns();
      record.correlation_id = reports_id_ ? correlation_id_ : 0;
      captures.emit_api(record);
    }
    return result;
  }

private:
  Simulator &simulator_;
  const ApiFunction function_;
  const uint64_t begin_ns_;
  const uint64_t correlation_id_;
  int32_t device_ = -1;
  bool reports_id_ = false; // records carry the id: the report does too
};

} // namespace prof::gcusim

#endif
