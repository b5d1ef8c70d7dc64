// One subscriber's capture: its selection, a device buffer and a host ring
// per device, and the driver thread that moves device buffers into host
// rings (the "DMA") and delivers host rings through on_records.
#ifndef PROF_GCUSIM_CAPTURE_HPP
#define PROF_GCUSIM_CAPTURE_HPP

#include "capture_selection.hpp"
#include "record_ring.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace prof::gcusim {

class Capture {
public:
  /// A capture of `config`, its driver thread started; nullptr with the reason
  /// in `error` when the config is invalid.
  static std::unique_ptr<Capture> create(const prof_gcu_capture_config &config,
                                         const prof_gcu_topology &topology, const ItemSlots &slots,
                                         uint32_t dma_interval_ms, std::string &error);
  ~Capture();
  Capture(const Capture &) = delete;
  Capture &operator=(const Capture &) = delete;

  /// Writes `record` (whose item has slot `slot`) if collecting and selected;
  /// whether it was (even when a full buffer then dropped it).
  bool offer(const prof_gcu_record &record, uint32_t slot);
  /// Reports an API call if its function is selected; on the calling thread.
  void offer_api(const prof_gcu_api_record &record);
  void set_collecting(bool on) { collecting_.store(on, std::memory_order_relaxed); }
  bool wants_records() const noexcept {
    return collecting_.load(std::memory_order_relaxed) && selection_.any_items();
  }
  bool wants_apis() const noexcept { return selection_.any_apis(); }
  /// Delivers everything buffered now; returns when on_records has seen it.
  void flush();
  /// Flushes and ends the driver thread: no callback runs afterwards.
  void stop();
  void stats(uint32_t device, prof_gcu_buffer_stats &out) const;

private:
  /// The buffers of one device and their counts, all under `mutex`.
  struct DeviceBuffers {
    DeviceBuffers(uint64_t device_bytes, uint64_t host_bytes)
        : device_buffer(device_bytes), host_ring(host_bytes) {}
    mutable std::mutex mutex;
    RecordRing device_buffer;
    RecordRing host_ring;
    uint64_t produced = 0;
    uint64_t delivered = 0;
    uint64_t dropped = 0;
    bool watermark_signalled = false;
  };
  using Clock = std::chrono::steady_clock;

  Capture(const prof_gcu_capture_config &config, CaptureSelection selection, uint32_t device_count,
          uint32_t dma_interval_ms);
  void run();
  void drain_device_buffer(DeviceBuffers &buffers);
  void deliver(DeviceBuffers &buffers);
  void signal_watermark();

  prof_gcu_capture_config config_;
  CaptureSelection selection_;
  bool device_mode_;
  std::chrono::milliseconds dma_interval_;
  std::vector<std::unique_ptr<DeviceBuffers>> buffers_;
  std::atomic<bool> collecting_;

  std::mutex control_mutex_;
  std::condition_variable wake_;       // the driver thread waits on it
  std::condition_variable flush_done_; // flush() waits on it
  uint64_t flush_requested_ = 0;
  uint64_t flush_completed_ = 0;
  bool watermark_pending_ = false;
  bool stop_requested_ = false;
  std::thread driver_thread_;
  std::thread::id driver_id_;
};

} // namespace prof::gcusim

#endif
