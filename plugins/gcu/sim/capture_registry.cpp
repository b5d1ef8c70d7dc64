#include "capture_registry.hpp"

#include <mutex>

namespace prof::gcusim {

int CaptureRegistry::subscribe(const prof_gcu_capture_config &config, uint32_t &handle,
                               std::string &error) {
  std::shared_ptr<Capture> capture =
      Capture::create(config, topology_, slots_, dma_interval_ms_, error);
  if (!capture) return -1;
  std::unique_lock lock(mutex_);
  handle = next_handle_++;
  captures_.emplace(handle, std::move(capture));
  capture_count_.store(static_cast<uint32_t>(captures_.size()));
  return 0;
}

std::shared_ptr<Capture> CaptureRegistry::find(uint32_t handle) {
  std::shared_lock lock(mutex_);
  auto it = captures_.find(handle);
  return it == captures_.end() ? nullptr : it->second;
}

void CaptureRegistry::set_collecting(uint32_t handle, bool on) {
  if (auto capture = find(handle)) capture->set_collecting(on);
}

void CaptureRegistry::flush(uint32_t handle) {
  if (auto capture = find(handle)) capture->flush();
}

void CaptureRegistry::unsubscribe(uint32_t handle) {
  std::shared_ptr<Capture> capture;
  {
    std::unique_lock lock(mutex_);
    auto it = captures_.find(handle);
    if (it == captures_.end()) return;
    capture = std::move(it->second);
    captures_.erase(it);
    capture_count_.store(static_cast<uint32_t>(captures_.size()));
  }
  capture->stop();
}

int CaptureRegistry::stats(uint32_t handle, uint32_t device, prof_gcu_buffer_stats &out) {
  if (device >= topology_.device_count) return -1;
  std::shared_ptr<Capture> capture = find(handle);
  if (!capture) return -1;
  capture->stats(device, out);
  return 0;
}

bool CaptureRegistry::emit(const prof_gcu_record &record) {
  if (!active()) return false;
  uint32_t slot = slots_.slot(record.group_index, record.engine, record.engine_index, record.item);
  std::shared_lock lock(mutex_);
  bool taken = false;
  for (auto &[handle, capture] : captures_)
    taken = capture->offer(record, slot) || taken;
  return taken;
}

void CaptureRegistry::emit_api(const prof_gcu_api_record &record) {
  if (!active()) return;
  std::shared_lock lock(mutex_);
  for (auto &[handle, capture] : captures_)
    capture->offer_api(record);
}

} // namespace prof::gcusim
