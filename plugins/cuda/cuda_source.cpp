#include "cuda_source.hpp"

#include "cuda_injection.hpp"

#include <prof/declared_options.hpp>
#include <prof/thread_track.hpp>
#include <prof/tsc_clock.hpp>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <unistd.h>

namespace prof::cuda {
namespace {

// CUPTI's buffer callbacks carry no user pointer: the started source.
std::atomic<CudaSource *> active_source{nullptr};

} // namespace

CudaSource::~CudaSource() {
  if (started_) stop();
}

bool CudaSource::configure() {
  try {
    options_ = read_cuda_options(host_);
  } catch (const std::exception &e) {
    host_.error(e.what());
    return false;
  }
  return true;
}

bool CudaSource::start() {
  if (started_) return true;
  tracks_ = std::make_unique<CudaTracks>(host_, getpid());
  // Device metrics once per capture: in its root process (or, attached, wherever asked).
  const int target = host_.session().target_pid;
  if (options_.metrics && (target == 0 || target == getpid())) {
    std::string error;
    const NvmlLibrary *nvml =
        open_nvml(std::string(DeclaredOptions(host_, kOptions).text("nvml")), error);
    if (nvml != nullptr) {
      metrics_ = std::make_unique<GpuMetricsSampler>(host_, *nvml, *tracks_);
      if (!metrics_->start(options_.metrics_hz, error)) metrics_.reset();
    }
    if (!metrics_) host_.log(PROF_LOG_WARN, "no GPU metrics: " + error);
  }
  started_ = true;
  if (cuda_driver_loaded()) return start_cupti(); // attached, or CUDA came first
  // Only the capture's root process looks for the driver, to say once that
  // there is none; in its children a hook no driver reads costs nothing.
  std::string where;
  if ((target == 0 || target == getpid()) && !cuda_driver_installed(where)) {
    host_.log(PROF_LOG_WARN, "no CUDA driver: " + where + "; the cuda source records nothing");
    return true;
  }
  if (const std::string warning = point_cuda_at_this_library(); !warning.empty()) {
    host_.log(PROF_LOG_WARN, warning);
    return true;
  }
  wait_for_cuda([this] { start_cupti(); });
  return true;
}

bool CudaSource::start_cupti() {
  std::string error;
  cupti_ = open_cupti(std::string(DeclaredOptions(host_, kOptions).text("cupti")), error);
  if (cupti_ == nullptr) {
    host_.log(PROF_LOG_WARN, "no CUPTI: " + error + "; the cuda source records nothing");
    return true;
  }
  if (active_source.exchange(this) != nullptr) {
    host_.error("another cuda source already uses CUPTI in this process");
    cupti_ = nullptr;
    return false;
  }
  translator_ = std::make_unique<ActivityTranslator>(
      host_, *tracks_,
      [cupti = cupti_](CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
        const char *name = nullptr;
        if (cupti->get_callback_name(domain, cbid, &name) != CUPTI_SUCCESS || !name)
          return std::string();
        return std::string(name);
      },
      getpid());
  translator_->set_flows(options_.runtime_api || options_.driver_api);
  buffers_ = std::make_unique<ActivityBuffers>(options_.buffer_bytes, options_.budget_bytes);

  // API records name their thread by its kernel id, as prof's thread tracks do.
  if (cupti_->set_thread_id_type == nullptr ||
      cupti_->set_thread_id_type(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM) != CUPTI_SUCCESS)
    host_.log(PROF_LOG_WARN, "CUPTI cannot name threads by their system id; API calls may land "
                             "on threads of their own");
  // Timestamps on prof's clock; else CUPTI's (CLOCK_REALTIME), shifted once.
  if (cupti_->register_timestamp_callback == nullptr ||
      cupti_->register_timestamp_callback(&TscClock::monotonic_ns) != CUPTI_SUCCESS) {
    uint64_t cupti_now = 0;
    const uint64_t before = host_.now();
    cupti_->timestamp(&cupti_now);
    const uint64_t after = host_.now();
    translator_->set_clock_offset(static_cast<int64_t>(cupti_now - (before + after) / 2));
  }
  size_t device_buffer = options_.device_buffer_bytes;
  size_t attribute_size = sizeof device_buffer;
  cupti_->set_attribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &attribute_size, &device_buffer);
  if (const CUptiResult result = cupti_->register_callbacks(&buffer_requested, &buffer_completed);
      result != CUPTI_SUCCESS) {
    host_.log(PROF_LOG_WARN, "CUPTI refused its buffer callbacks: " + cupti_->describe(result) +
                                 "; the cuda source records nothing");
    active_source = nullptr;
    cupti_ = nullptr;
    return true;
  }
  if (cupti_->flush_period != nullptr && options_.flush_period_ms > 0)
    cupti_->flush_period(options_.flush_period_ms);

  kinds_ = {CUPTI_ACTIVITY_KIND_CONTEXT,         CUPTI_ACTIVITY_KIND_MEMCPY,
            CUPTI_ACTIVITY_KIND_MEMCPY2,         CUPTI_ACTIVITY_KIND_MEMSET,
            CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION};
  kinds_.push_back(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (options_.graph_level) kinds_.push_back(CUPTI_ACTIVITY_KIND_GRAPH_TRACE);
  if (options_.runtime_api) kinds_.push_back(CUPTI_ACTIVITY_KIND_RUNTIME);
  if (options_.driver_api) kinds_.push_back(CUPTI_ACTIVITY_KIND_DRIVER);
  if (options_.memory) kinds_.push_back(CUPTI_ACTIVITY_KIND_MEMORY2);
  enable_kinds();
  return true;
}

void CudaSource::enable_kinds() {
  if (cupti_ == nullptr) return;
  std::string refused;
  for (const CUpti_ActivityKind kind : kinds_)
    if (const CUptiResult result = cupti_->enable(kind); result != CUPTI_SUCCESS)
      refused += (refused.empty() ? "" : ", ") + std::to_string(static_cast<int>(kind)) + " (" +
                 cupti_->describe(result) + ")";
  if (!refused.empty()) host_.log(PROF_LOG_WARN, "CUPTI refused activity kinds " + refused);
}

void CudaSource::disable_kinds() {
  if (cupti_ == nullptr) return;
  for (const CUpti_ActivityKind kind : kinds_)
    cupti_->disable(kind);
}

bool CudaSource::stop() {
  if (!started_) return true;
  stop_waiting_for_cuda(); // returns once a start under way has ended
  if (metrics_) metrics_->stop();
  if (cupti_ != nullptr) {
    disable_kinds();
    cupti_->flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    report_counts();
    active_source = nullptr;
    std::lock_guard wait_for_drain(drain_mutex_); // a delivery under way ends first
  }
  started_ = false;
  return true;
}

bool CudaSource::suspend() {
  if (metrics_) metrics_->set_paused(true);
  if (cupti_ == nullptr) return true;
  // What happened before the pause is delivered; nothing after it is recorded.
  disable_kinds();
  cupti_->flush_all(0);
  return true;
}

bool CudaSource::resume() {
  if (metrics_) metrics_->set_paused(false);
  enable_kinds();
  return true;
}

bool CudaSource::flush() {
  if (cupti_ != nullptr) cupti_->flush_all(0);
  return true;
}

void CudaSource::buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *max_records = 0; // as many as fit
  *buffer = nullptr;
  *size = 0;
  if (CudaSource *source = active_source.load()) *buffer = source->buffers_->take(*size);
}

void CudaSource::buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer,
                                  size_t /*size*/, size_t valid_size) {
  CudaSource *source = active_source.load();
  if (source == nullptr) {
    std::free(buffer); // a buffer of a stopped capture: taken from the same allocator
    return;
  }
  source->drain(context, stream, buffer, valid_size);
}

void CudaSource::drain(CUcontext context, uint32_t stream, uint8_t *buffer, size_t valid_size) {
  {
    std::lock_guard lock(drain_mutex_);
    CUpti_Activity *record = nullptr;
    uint64_t records = 0;
    while (cupti_->next_record(buffer, valid_size, &record) == CUPTI_SUCCESS) {
      translator_->translate(*record);
      ++records;
    }
    buffers_->count_records(records);
    size_t dropped = 0;
    if (cupti_->dropped_records(context, stream, &dropped) == CUPTI_SUCCESS)
      buffers_->count_dropped(dropped);
  }
  buffers_->give_back(buffer);
}

void CudaSource::report_counts() {
  // In the report as counters, so every exporter and a later reader see them.
  const prof_track_id process = declare_process_track(host_);
  const uint64_t now = host_.now();
  host_.counter(host_.track(PROF_TRACK_COUNTER, "CUDA records", process, 0, 0, -1, "records"), now,
                static_cast<double>(buffers_->records()));
  host_.counter(
      host_.track(PROF_TRACK_COUNTER, "CUDA records dropped", process, 0, 0, -1, "records"), now,
      static_cast<double>(buffers_->dropped()));
  host_.count_dropped(PROF_DROP_DEVICE_BUFFER_FULL, buffers_->dropped());
  if (buffers_->dropped() > 0)
    host_.log(PROF_LOG_WARN, std::to_string(buffers_->dropped()) + " of " +
                                 std::to_string(buffers_->records() + buffers_->dropped()) +
                                 " CUDA activity records were dropped because CUPTI had no "
                                 "buffer; raise --host-ringbuffer-size or --device-buffer-size");
}

} // namespace prof::cuda
