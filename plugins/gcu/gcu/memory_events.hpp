// A GCU driver's memory records (driver 1.2) as prof's memory events
// (event.h): an instant per allocation or free on the device's "Memory" row
// with the arguments statistics read, and the device's "Memory used" counter
// over the live device blocks this capture has seen allocated.
#pragma once

#include "device_tracks.hpp"

#include <prof/device_memory_usage.hpp>
#include <prof/gcu_driver.h>
#include <prof/plugin.hpp>

#include <cstdint>
#include <mutex>

namespace prof::gcu {

class MemoryEvents {
public:
  /// `pid` makes the records' correlation ids the session's.
  MemoryEvents(const Host &host, DeviceTracks &tracks, int pid);

  /// Emits the events of one record; `category` is its display category (the
  /// driver's name of the memory activity; 0: "Memory"). Records of one device arrive in
  /// the order the driver made them.
  void add(const prof_gcu_memory_record &record, prof_string_id category);

private:
  const Host &host_;
  DeviceTracks &tracks_;
  const int pid_;
  const prof_string_id memory_category_, alloc_, free_, device_, pinned_;
  const prof_string_id operation_key_, address_key_, bytes_key_, memory_key_, correlation_key_;
  std::mutex mutex_; // a driver may deliver devices on several threads
  DeviceMemoryUsage usage_;
};

} // namespace prof::gcu
