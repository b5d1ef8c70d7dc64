// What the runtime API keeps between calls: device memory, the streams and
// events that handles name, each thread's current device, the profiler flag.
#ifndef PROF_GCUSIM_RUNTIME_STATE_HPP
#define PROF_GCUSIM_RUNTIME_STATE_HPP

#include "command_stream.hpp"
#include "device_memory.hpp"
#include "gcusim/gcu_runtime.h"
#include "sim_event.hpp"
#include "simulator.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace prof::gcusim {

class RuntimeState {
public:
  static RuntimeState &instance();

  Simulator &simulator() noexcept { return simulator_; }
  DeviceMemory &memory() noexcept { return memory_; }

  /// The calling thread's current device.
  static uint32_t current_device() noexcept;
  static void set_current_device(uint32_t device) noexcept;

  /// The stream `handle` names (NULL: the current device's default stream), or nullptr.
  std::shared_ptr<CommandStream> stream(gcuStream_t handle);
  gcuStream_t create_stream(uint32_t device);
  /// Removes a created stream from the handles; nullptr if `handle` names none.
  std::shared_ptr<CommandStream> remove_stream(gcuStream_t handle);
  /// Waits for every stream of `device`.
  void synchronize_device(uint32_t device);
  /// At process exit: lets queued work finish for up to a second, then halts
  /// the streams, so static objects the application destroys after this are
  /// not used by kernels or copies that start later.
  void drain_at_exit();

  gcuEvent_t create_event();
  std::shared_ptr<SimEvent> event(gcuEvent_t handle);
  bool remove_event(gcuEvent_t handle);

  std::atomic<bool> profiler_active{false};

private:
  RuntimeState();
  std::shared_ptr<CommandStream> default_stream(uint32_t device);
  std::vector<std::shared_ptr<CommandStream>> streams_of(std::optional<uint32_t> device);

  Simulator &simulator_;
  DeviceMemory memory_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<CommandStream>> default_streams_; // per device, made on first use
  std::map<gcuStream_t, std::shared_ptr<CommandStream>> streams_;
  std::map<gcuEvent_t, std::shared_ptr<SimEvent>> events_;
};

} // namespace prof::gcusim

#endif
