#include "capture.hpp"

namespace prof::gcusim {
namespace {

std::string check_sizes(const prof_gcu_capture_config &config) {
  constexpr uint64_t record_size = sizeof(prof_gcu_record);
  if (config.struct_size < sizeof(prof_gcu_capture_config))
    return "struct_size " + std::to_string(config.struct_size) + " is smaller than " +
           std::to_string(sizeof(prof_gcu_capture_config)) + " (prof_gcu_capture_config 1.0)";
  if (config.buffer != PROF_GCU_BUFFER_DEVICE && config.buffer != PROF_GCU_BUFFER_HOST)
    return "buffer " + std::to_string(config.buffer) +
           " is neither PROF_GCU_BUFFER_DEVICE nor PROF_GCU_BUFFER_HOST";
  if (config.buffer == PROF_GCU_BUFFER_DEVICE && config.device_buffer_bytes < record_size)
    return "device_buffer_bytes " + std::to_string(config.device_buffer_bytes) +
           " holds no record (72 bytes each)";
  if (config.host_ring_bytes < record_size)
    return "host_ring_bytes " + std::to_string(config.host_ring_bytes) +
           " holds no record (72 bytes each)";
  if (config.watermark_bytes == 0) return "watermark_bytes is 0";
  if (config.watermark_bytes >= config.host_ring_bytes)
    return "watermark_bytes " + std::to_string(config.watermark_bytes) +
           " is not below host_ring_bytes " + std::to_string(config.host_ring_bytes);
  if (config.item_count > 0 && config.on_records == nullptr)
    return "items are selected but on_records is null";
  if (config.api_count > 0 && config.on_api == nullptr)
    return "API functions are selected but on_api is null";
  return {};
}

} // namespace

std::unique_ptr<Capture> Capture::create(const prof_gcu_capture_config &config,
                                         const prof_gcu_topology &topology, const ItemSlots &slots,
                                         uint32_t dma_interval_ms, std::string &error) {
  if (error = check_sizes(config); !error.empty()) return nullptr;
  std::optional<CaptureSelection> selection =
      CaptureSelection::build(config, topology, slots, error);
  if (!selection) return nullptr;
  std::unique_ptr<Capture> capture(
      new Capture(config, std::move(*selection), topology.device_count, dma_interval_ms));
  capture->driver_thread_ = std::thread([raw = capture.get()] { raw->run(); });
  capture->driver_id_ = capture->driver_thread_.get_id();
  return capture;
}

Capture::Capture(const prof_gcu_capture_config &config, CaptureSelection selection,
                 uint32_t device_count, uint32_t dma_interval_ms)
    : config_(config), selection_(std::move(selection)),
      device_mode_(config.buffer == PROF_GCU_BUFFER_DEVICE), dma_interval_(dma_interval_ms),
      collecting_(config.collecting != 0) {
  config_.items = nullptr; // the selection holds what they said
  config_.apis = nullptr;
  buffers_.reserve(device_count);
  for (uint32_t d = 0; d < device_count; ++d) {
    bool used = selection_.device_selected(d);
    buffers_.push_back(std::make_unique<DeviceBuffers>(
        used && device_mode_ ? config.device_buffer_bytes : 0, used ? config.host_ring_bytes : 0));
  }
}

Capture::~Capture() { stop(); }

bool Capture::offer(const prof_gcu_record &record, uint32_t slot) {
  if (!collecting_.load(std::memory_order_relaxed) || !selection_.selected(record.device, slot))
    return false;
  DeviceBuffers &buffers = *buffers_[record.device];
  bool crossed_watermark = false;
  {
    std::lock_guard lock(buffers.mutex);
    ++buffers.produced;
    RecordRing &target = device_mode_ ? buffers.device_buffer : buffers.host_ring;
    if (!target.push(record)) {
      ++buffers.dropped;
    } else if (!device_mode_ && !buffers.watermark_signalled &&
               buffers.host_ring.size_bytes() >= config_.watermark_bytes) {
      buffers.watermark_signalled = true;
      crossed_watermark = true;
    }
  }
  if (crossed_watermark) signal_watermark();
  return true;
}

void Capture::offer_api(const prof_gcu_api_record &record) {
  if (selection_.api_selected(record.domain, record.function))
    config_.on_api(config_.user, &record);
}

void Capture::signal_watermark() {
  std::lock_guard lock(control_mutex_);
  watermark_pending_ = true;
  wake_.notify_one();
}

void Capture::flush() {
  // Called from on_records: the driver thread cannot wait for itself.
  if (std::this_thread::get_id() == driver_id_) return;
  std::unique_lock lock(control_mutex_);
  if (stop_requested_) return;
  uint64_t ticket = ++flush_requested_;
  wake_.notify_one();
  flush_done_.wait(lock, [&] { return flush_completed_ >= ticket; });
}

void Capture::stop() {
  {
    std::lock_guard lock(control_mutex_);
    if (stop_requested_) return;
    stop_requested_ = true;
    wake_.notify_one();
  }
  driver_thread_.join();
}

void Capture::stats(uint32_t device, prof_gcu_buffer_stats &out) const {
  const DeviceBuffers &buffers = *buffers_[device];
  std::lock_guard lock(buffers.mutex);
  out.produced = buffers.produced;
  out.delivered = buffers.delivered;
  out.dropped = buffers.dropped;
}

void Capture::run() {
  const bool periodic = config_.flush_period_ms > 0;
  const std::chrono::milliseconds period(config_.flush_period_ms);
  Clock::time_point next_dma = Clock::now() + dma_interval_;
  Clock::time_point next_period = Clock::now() + period;
  std::unique_lock lock(control_mutex_);
  for (;;) {
    Clock::time_point deadline = Clock::time_point::max();
    if (device_mode_) deadline = next_dma;
    if (periodic && next_period < deadline) deadline = next_period;
    auto woken = [&] {
      return stop_requested_ || flush_requested_ != flush_completed_ || watermark_pending_;
    };
    if (deadline == Clock::time_point::max())
      wake_.wait(lock, woken);
    else
      wake_.wait_until(lock, deadline, woken);
    const uint64_t flush_target = flush_requested_;
    const bool stopping = stop_requested_;
    const bool everything = stopping || flush_target != flush_completed_;
    watermark_pending_ = false;
    lock.unlock();

    Clock::time_point now = Clock::now();
    const bool dma_due = device_mode_ && (everything || now >= next_dma);
    const bool period_due = periodic && now >= next_period;
    for (auto &buffers : buffers_) {
      if (buffers->host_ring.capacity() == 0) continue; // device not selected
      if (dma_due) drain_device_buffer(*buffers);
      bool deliver_now = everything || period_due;
      if (!deliver_now) {
        std::lock_guard device_lock(buffers->mutex);
        deliver_now = buffers->host_ring.size_bytes() >= config_.watermark_bytes;
      }
      if (deliver_now) deliver(*buffers);
    }
    if (dma_due) next_dma = now + dma_interval_;
    if (period_due) next_period = now + period;

    lock.lock();
    if (everything) {
      flush_completed_ = flush_target;
      flush_done_.notify_all();
    }
    if (stopping) break;
  }
}

void Capture::drain_device_buffer(DeviceBuffers &buffers) {
  std::unique_lock lock(buffers.mutex);
  for (;;) {
    while (buffers.device_buffer.size() > 0 && buffers.host_ring.free_space() > 0) {
      std::span<const prof_gcu_record> span =
          buffers.device_buffer.front_span(buffers.host_ring.free_space());
      for (const prof_gcu_record &record : span)
        buffers.host_ring.push(record);
      buffers.device_buffer.pop(span.size());
    }
    if (buffers.device_buffer.size() == 0) break;
    // The host ring is full: hand it over to make room, then go on.
    lock.unlock();
    deliver(buffers);
    lock.lock();
  }
}

void Capture::deliver(DeviceBuffers &buffers) {
  std::unique_lock lock(buffers.mutex);
  size_t remaining = buffers.host_ring.size(); // not what arrives meanwhile: no endless loop
  while (remaining > 0) {
    std::span<const prof_gcu_record> span = buffers.host_ring.front_span(remaining);
    lock.unlock();
    config_.on_records(config_.user, span.data(), span.size());
    lock.lock();
    buffers.host_ring.pop(span.size());
    buffers.delivered += span.size();
    remaining -= span.size();
  }
  if (buffers.host_ring.size_bytes() < config_.watermark_bytes) buffers.watermark_signalled = false;
}

} // namespace prof::gcusim
