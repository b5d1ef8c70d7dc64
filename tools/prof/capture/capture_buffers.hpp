// The rings a capture's events go through: prof's own threads' (sized by
// --host-buffer-size, --host-ringbuffer-size and --watermark-threshold) and
// the application's threads' in shared memory.
#pragma once

#include "core/events/event_bus.hpp"
#include "core/plugin_host/source_instance.hpp"
#include "tools/prof/cli/command_line.hpp"

#include <memory>

namespace prof::core {
class ShmEventSource;
} // namespace prof::core

namespace prof::tool {

class AgentSetup;

/// Ring sizes of prof's own threads (--host-buffer-size, --host-ringbuffer-size,
/// --watermark-threshold).
core::EventBusConfig bus_config(const cli::CommandLine &command);
/// Rings of the application's threads in shared memory.
core::EventBusConfig agent_bus_config(const cli::CommandLine &command,
                                      const core::EventBusConfig &buffers);

/// The application's shared rings, in the region `agent` creates with
/// `buffers`; warns when fewer rings fit than asked for. Throws on failure.
std::unique_ptr<core::ShmEventSource> shared_event_source(AgentSetup &agent,
                                                          const core::EventBusConfig &buffers,
                                                          core::CaptureContext &capture);

} // namespace prof::tool
