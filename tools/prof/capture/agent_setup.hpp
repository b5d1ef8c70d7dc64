// What a capture with process-scope sources needs: the agent preloaded into
// the application (and the plugins' own .so files, so they can interpose
// functions by symbol), and the shared region the agent writes to.
#pragma once

#include "core/events/event_bus.hpp"
#include "core/runtime/shm_region.hpp"
#include "tools/prof/capture/plugin_selection.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace prof::tool {

class AgentSetup {
public:
  /// Names the region and builds the application's environment. Throws
  /// std::runtime_error when the agent library is not installed.
  explicit AgentSetup(const std::vector<SelectedPlugin> &process_sources);

  /// --step-marker: the annotation range whose ends the agent counts as steps.
  void mark_steps_with(std::string name, std::string domain) {
    step_marker_name_ = std::move(name);
    step_marker_domain_ = std::move(domain);
  }
  /// --flight-recorder: each process answers dumps with its unfinished slices.
  void answer_dumps() { answers_dumps_ = true; }
  /// --hang-timeout: each process tells prof of a communication call open `ns` long.
  void watch_stalls(uint64_t ns) { stall_ns_ = ns; }
  /// "LD_PRELOAD=...", "PROF_AGENT_SHM=..." for AppLauncher::spawn.
  const std::vector<std::string> &environment() const { return environment_; }
  /// Creates the region, with the session facts the agent hands its plugins,
  /// and no ring reserved yet. Throws std::runtime_error.
  core::ShmRegion &create_region(const core::EventBusConfig &buffers,
                                 const prof_session_info &session);
  /// Reserves the first kInitialRings once the application may run: a
  /// thread of it that needs a ring before reserves one itself. Without
  /// room, the drain says the mount is full.
  void reserve_initial_rings();
  /// Removes the region's name; mapped memory goes with the last process.
  ~AgentSetup();

  /// Rings the application's threads may have: the host buffer shared out
  /// as for prof's own threads (--host-buffer-size over the ring size), at
  /// most kMaxRings. Only kInitialRings are reserved as the application
  /// starts (its main thread's), by reserve_initial_rings() while it
  /// execs (the region only checks there is room for one before);
  /// prof reserves more while it drains, keeping
  /// ShmEventSource::kSpareRings free, and a thread that finds every ring
  /// taken reserves the next itself, so a capture pays for the threads it
  /// has (reserving a ring, and giving it back, costs about 0.3 ms per MB on
  /// these VMs). A thread holds its ring until it exits.
  static constexpr uint32_t kMaxRings = 64;
  static constexpr uint32_t kInitialRings = 1;
  /// The catalog's part reserved before the application starts: what a
  /// capture of a few threads defines; the agent reserves more as it fills.
  static constexpr uint64_t kInitialCatalogBytes = 64u << 10;
  static uint32_t ring_count_for(const core::EventBusConfig &buffers) {
    return std::min(buffers.ring_count, kMaxRings);
  }

  /// The shared region's name (what an attaching agent is sent).
  const std::string &region_name() const { return name_; }
  /// Its descriptor, passed beside the name: a process in a container, whose
  /// /dev/shm is its own, maps the region through it.
  int region_fd() const { return region_.fd(); }
  /// Before a process in another pid namespace joins: nobody judges the
  /// region's lock and ring owners gone by their pids (ShmHeader::ids_unchecked).
  void admit_other_pid_namespaces() {
    region_.header()->ids_unchecked.store(1, std::memory_order_relaxed);
  }

  /// libprof-agent.so: PROF_AGENT_PATH, else ../lib/prof beside the executable.
  static std::string agent_path();

private:
  std::string step_marker_name_, step_marker_domain_;
  bool answers_dumps_ = false;
  uint64_t stall_ns_ = 0;
  std::vector<SelectedPlugin> sources_;
  std::string name_;
  std::vector<std::string> environment_;
  core::ShmRegion region_;
};

} // namespace prof::tool
