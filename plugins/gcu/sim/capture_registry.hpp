// The captures running now: where the device model's records and the
// runtime's API calls go. Each capture gets its own copy.
#ifndef PROF_GCUSIM_CAPTURE_REGISTRY_HPP
#define PROF_GCUSIM_CAPTURE_REGISTRY_HPP

#include "capture.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>

namespace prof::gcusim {

class CaptureRegistry {
public:
  CaptureRegistry(const prof_gcu_topology &topology, const ItemSlots &slots,
                  uint32_t dma_interval_ms)
      : topology_(topology), slots_(slots), dma_interval_ms_(dma_interval_ms) {}

  /// 0 with *handle set, or -1 with the reason in `error`.
  int subscribe(const prof_gcu_capture_config &config, uint32_t &handle, std::string &error);
  void set_collecting(uint32_t handle, bool on);
  void flush(uint32_t handle);
  void unsubscribe(uint32_t handle);
  int stats(uint32_t handle, uint32_t device, prof_gcu_buffer_stats &out);

  /// False when no capture runs: the model can skip building records.
  bool active() const noexcept { return capture_count_.load() > 0; }
  /// Hands `record` to every capture that selected its item; whether one took it.
  bool emit(const prof_gcu_record &record);
  /// Hands a finished API call to every capture that selected its function.
  void emit_api(const prof_gcu_api_record &record);

private:
  std::shared_ptr<Capture> find(uint32_t handle);

  const prof_gcu_topology &topology_;
  const ItemSlots &slots_;
  const uint32_t dma_interval_ms_;
  // Shared while records and API calls are handed out; exclusive to add or
  // remove a capture, so none is handed anything after its removal.
  std::shared_mutex mutex_;
  std::map<uint32_t, std::shared_ptr<Capture>> captures_;
  uint32_t next_handle_ = 1;
  std::atomic<uint32_t> capture_count_{0};
};

} // namespace prof::gcusim

#endif
