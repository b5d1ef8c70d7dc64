#include "tools/prof/capture/capture_buffers.hpp"

#include "core/events/shm_event_source.hpp"
#include "tools/prof/capture/agent_setup.hpp"

#include <algorithm>

namespace prof::tool {

core::EventBusConfig bus_config(const cli::CommandLine &command) {
  core::EventBusConfig config;
  const uint64_t mib = 1ull << 20;
  config.ring_bytes = static_cast<uint64_t>(command.int_or("host-ringbuffer-size", 16)) * mib;
  // Without --watermark-threshold, the default (15 MB) follows a smaller ring.
  config.watermark_bytes =
      static_cast<uint64_t>(
          command.int_or("watermark-threshold",
                         std::min<long>(15, command.int_or("host-ringbuffer-size", 16) - 1))) *
      mib;
  const uint64_t host_buffer =
      static_cast<uint64_t>(command.int_or("host-buffer-size", 1024)) * mib;
  // The host buffer is shared out as per-thread rings.
  config.ring_count = static_cast<uint32_t>(std::max<uint64_t>(2, host_buffer / config.ring_bytes));
  return config;
}

// The application's threads get rings of their own in shared memory, which
// is reserved before a thread can take it (a full /dev/shm must not SIGBUS
// the application) and costs time to reserve and unmap: 16 rings of 16 MB
// took 70 ms on a 2-core VM. Drained every millisecond, 2 MB (43k events: a
// device buffer's burst) per thread is ample unless the user sizes the rings.
core::EventBusConfig agent_bus_config(const cli::CommandLine &command,
                                      const core::EventBusConfig &buffers) {
  core::EventBusConfig config = buffers;
  if (command.has("host-ringbuffer-size")) return config;
  const uint64_t mib = 1ull << 20;
  config.ring_bytes = std::min<uint64_t>(buffers.ring_bytes, 2 * mib);
  config.watermark_bytes = std::min(config.watermark_bytes, config.ring_bytes / 2);
  return config;
}

std::unique_ptr<core::ShmEventSource> shared_event_source(AgentSetup &agent,
                                                          const core::EventBusConfig &buffers,
                                                          core::CaptureContext &capture) {
  core::ShmRegion &region = agent.create_region(buffers, capture.session);
  if (const uint32_t wanted = AgentSetup::ring_count_for(buffers);
      region.header()->ring_count < wanted)
    capture.console.warning("shared memory holds only " +
                            std::to_string(region.header()->ring_count) +
                            " rings for the application's threads (asked for " +
                            std::to_string(wanted) + "); lower --host-ringbuffer-size");
  return std::make_unique<core::ShmEventSource>(region, capture.catalog);
}

} // namespace prof::tool
