// prof_gcu_driver_entry: the driver interface over the model. Every function
// works before any runtime call; the model starts on first use.
#include "simulator.hpp"

#include <cstdio>
#include <string>

namespace prof::gcusim {
namespace {

const prof_gcu_topology *driver_topology() { return &Simulator::instance().topology(); }

double driver_clock_frequency(uint32_t device) {
  Simulator &sim = Simulator::instance();
  return device < sim.device_count() ? sim.device(device).clock().frequency() : 0.0;
}

int driver_clock_pair(uint32_t device, uint64_t *host_ns, uint64_t *device_ticks) {
  Simulator &sim = Simulator::instance();
  if (device >= sim.device_count() || host_ns == nullptr || device_ticks == nullptr) return -1;
  sim.device(device).clock().read_pair(*host_ns, *device_ticks);
  return 0;
}

const char *driver_label(uint32_t id) { return Simulator::instance().labels().text(id); }
uint16_t driver_label_category(uint32_t id) { return Simulator::instance().labels().category(id); }

int driver_subscribe(const prof_gcu_capture_config *config, uint32_t *handle, char *error,
                     size_t error_size) {
  std::string reason;
  int result = -1;
  if (config == nullptr)
    reason = "config is null";
  else if (handle == nullptr)
    reason = "handle is null";
  else
    result = Simulator::instance().captures().subscribe(*config, *handle, reason);
  if (result != 0 && error != nullptr && error_size > 0)
    std::snprintf(error, error_size, "%s", reason.c_str());
  return result;
}

void driver_set_collecting(uint32_t handle, int on) {
  Simulator::instance().captures().set_collecting(handle, on != 0);
}

void driver_flush(uint32_t handle) { Simulator::instance().captures().flush(handle); }

void driver_unsubscribe(uint32_t handle) { Simulator::instance().captures().unsubscribe(handle); }

int driver_stats(uint32_t handle, uint32_t device, prof_gcu_buffer_stats *out) {
  if (out == nullptr) return -1;
  // A caller may leave struct_size 0; a nonzero one must have room for 1.0's fields.
  if (out->struct_size != 0 && out->struct_size < sizeof(prof_gcu_buffer_stats)) return -1;
  prof_gcu_buffer_stats stats{};
  if (Simulator::instance().captures().stats(handle, device, stats) != 0) return -1;
  out->struct_size = sizeof(prof_gcu_buffer_stats);
  out->produced = stats.produced;
  out->delivered = stats.delivered;
  out->dropped = stats.dropped;
  return 0;
}

int driver_busy_ticks(uint32_t device, int32_t group, uint32_t group_index, uint64_t *busy,
                      uint32_t *units) {
  Simulator &sim = Simulator::instance();
  if (device >= sim.device_count() || busy == nullptr || units == nullptr) return -1;
  return sim.device(device).busy_ticks(group, group_index, *busy, *units);
}

const prof_gcu_driver kDriver = {sizeof(prof_gcu_driver),
                                 PROF_GCU_DRIVER_MAJOR,
                                 PROF_GCU_DRIVER_MINOR,
                                 "gcusim",
                                 "1.0.0",
                                 driver_topology,
                                 driver_clock_frequency,
                                 driver_clock_pair,
                                 driver_label,
                                 driver_subscribe,
                                 driver_set_collecting,
                                 driver_flush,
                                 driver_unsubscribe,
                                 driver_stats,
                                 driver_busy_ticks,
                                 driver_label_category};

} // namespace
} // namespace prof::gcusim

extern "C" __attribute__((visibility("default"))) const prof_gcu_driver *
prof_gcu_driver_entry(void) {
  return &prof::gcusim::kDriver;
}
