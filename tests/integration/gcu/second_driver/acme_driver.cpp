// A second vendor's device driver behind prof's GCU driver interface, as
// small as one can be: one device with a "Vector Unit" and a "Mover", names
// gcusim never uses, records delivered on the calling thread. It exists to
// show that prof's gcu source, statistics and summary depend on what the
// driver says its activities are, never on gcusim's names.
#include "acme_runtime.h"

#include <prof/event.h>
#include <prof/gcu_driver.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <thread>

namespace {

enum Engine : uint32_t { kVectorUnit, kMover };
enum MoverActivity : uint32_t { kXfer, kFill };
enum Function : uint32_t { kRun, kCopyIn, kCopyOut, kFillCall };
enum Label : uint32_t { kNoLabel, kJobA, kJobB, kIn, kOut, kZero, kLabelCount };

const char *const kVectorActivities[] = {"Vector Job"};
const char *const kMoverActivities[] = {"Xfer", "Fill"};
const prof_gcu_engine_desc kEngines[] = {
    {"Vector Unit", -1, 1, kVectorActivities, 1, nullptr, 0},
    {"Mover", -1, 1, kMoverActivities, 2, nullptr, 0},
};
const char *const kFunctions[] = {"acmeRun", "acmeCopyIn", "acmeCopyOut", "acmeFill"};
const prof_gcu_api_domain kDomains[] = {{"ACME", kFunctions, 4}};
const prof_gcu_activity_desc kKinds[] = {
    {kVectorUnit, 0, PROF_CATEGORY_KERNEL, PROF_GCU_ACTIVITY_ENDS_FLOW},
    {kMover, kXfer, PROF_CATEGORY_MEMCPY, PROF_GCU_ACTIVITY_ENDS_FLOW},
    {kMover, kFill, PROF_CATEGORY_MEMSET, PROF_GCU_ACTIVITY_ENDS_FLOW},
};
const prof_gcu_topology kTopology = {
    sizeof(prof_gcu_topology), 1, nullptr, 0, kEngines, 2, kDomains, 1, kKinds, 3};
const char *const kLabels[kLabelCount] = {"", "job-A", "job-B", "In", "Out", "Zero"};
const uint16_t kLabelCategories[kLabelCount] = {
    0, 0, 0, PROF_CATEGORY_MEMCPY_HTOD, PROF_CATEGORY_MEMCPY_DTOH, PROF_CATEGORY_MEMSET};

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

/// The one capture this driver supports at a time.
struct Capture {
  std::mutex mutex;
  bool active = false;
  bool collecting = false;
  bool items[2][2] = {};
  bool apis[4] = {};
  prof_gcu_capture_config config{};
  uint64_t produced = 0;
};
Capture g_capture;
std::atomic<uint64_t> g_correlation{0};

const prof_gcu_topology *topology() { return &kTopology; }
double clock_frequency(uint32_t) { return 1e9; }
int clock_pair(uint32_t device, uint64_t *host_ns, uint64_t *ticks) {
  if (device != 0 || !host_ns || !ticks) return -1;
  *host_ns = *ticks = now_ns();
  return 0;
}
const char *label(uint32_t id) { return id < kLabelCount ? kLabels[id] : ""; }
uint16_t label_category(uint32_t id) { return id < kLabelCount ? kLabelCategories[id] : 0; }

int subscribe(const prof_gcu_capture_config *config, uint32_t *handle, char *error,
              size_t error_size) {
  std::lock_guard lock(g_capture.mutex);
  if (g_capture.active) {
    std::snprintf(error, error_size, "acme supports one capture at a time");
    return -1;
  }
  std::memset(g_capture.items, 0, sizeof g_capture.items);
  std::memset(g_capture.apis, 0, sizeof g_capture.apis);
  g_capture.produced = 0;
  for (uint32_t i = 0; i < config->item_count; ++i) {
    const prof_gcu_item &item = config->items[i];
    if (item.device == 0 && item.engine < 2 && item.item < 2)
      g_capture.items[item.engine][item.item] = true;
  }
  for (uint32_t i = 0; i < config->api_count; ++i)
    if (config->apis[i].domain == 0 && config->apis[i].function < 4)
      g_capture.apis[config->apis[i].function] = true;
  g_capture.config = *config;
  g_capture.collecting = config->collecting != 0;
  g_capture.active = true;
  *handle = 1;
  return 0;
}
void set_collecting(uint32_t, int on) {
  std::lock_guard lock(g_capture.mutex);
  g_capture.collecting = on != 0;
}
void flush(uint32_t) {}
void unsubscribe(uint32_t) {
  std::lock_guard lock(g_capture.mutex);
  g_capture.active = false;
}
int stats(uint32_t, uint32_t device, prof_gcu_buffer_stats *out) {
  if (device != 0 || out == nullptr) return -1;
  std::lock_guard lock(g_capture.mutex);
  out->produced = out->delivered = g_capture.produced;
  out->dropped = 0;
  return 0;
}
int busy_ticks(uint32_t, int32_t, uint32_t, uint64_t *, uint32_t *) { return -1; }

const prof_gcu_driver kDriver = {sizeof(prof_gcu_driver),
                                 PROF_GCU_DRIVER_MAJOR,
                                 PROF_GCU_DRIVER_MINOR,
                                 "acme",
                                 "0.1",
                                 topology,
                                 clock_frequency,
                                 clock_pair,
                                 label,
                                 subscribe,
                                 set_collecting,
                                 flush,
                                 unsubscribe,
                                 stats,
                                 busy_ticks,
                                 label_category};

/// Runs `work` on the device for `ns` as API call `function`: the call's
/// record on the calling thread, then the device's record of the work.
void device_call(Function function, Engine engine, uint32_t activity, uint32_t work_label,
                 uint64_t bytes, uint64_t ns) {
  const uint64_t correlation = ++g_correlation;
  const uint64_t begin = now_ns();
  const uint64_t start = now_ns();
  std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
  const uint64_t end = now_ns();
  std::lock_guard lock(g_capture.mutex);
  if (!g_capture.active) return;
  if (g_capture.apis[function] && g_capture.config.on_api) {
    prof_gcu_api_record call{sizeof call, 0, function, 0, 0, begin, now_ns(), correlation};
    g_capture.config.on_api(g_capture.config.user, &call);
  }
  if (!g_capture.collecting || !g_capture.items[engine][activity]) return;
  prof_gcu_record record{};
  record.kind = PROF_GCU_RECORD_ACTIVITY;
  record.group = -1;
  record.engine = static_cast<uint16_t>(engine);
  record.item = activity;
  record.label = work_label;
  record.start = start;
  record.end = end;
  record.correlation_id = correlation;
  record.bytes = bytes;
  ++g_capture.produced;
  g_capture.config.on_records(g_capture.config.user, &record, 1);
}

} // namespace

extern "C" {
__attribute__((visibility("default"))) const prof_gcu_driver *prof_gcu_driver_entry(void) {
  return &kDriver;
}
void acme_run(int job_b, uint64_t ns) {
  device_call(kRun, kVectorUnit, 0, job_b ? kJobB : kJobA, 0, ns);
}
void acme_copy_in(uint64_t bytes) { device_call(kCopyIn, kMover, kXfer, kIn, bytes, 100000); }
void acme_copy_out(uint64_t bytes) { device_call(kCopyOut, kMover, kXfer, kOut, bytes, 100000); }
void acme_fill(uint64_t bytes) { device_call(kFillCall, kMover, kFill, kZero, bytes, 50000); }
}
