#include "tools/prof/capture/agent_setup.hpp"

#include "core/runtime/agent_config.hpp"
#include "core/runtime/shm_region.hpp"

#include <boost/dll/runtime_symbol_info.hpp>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace prof::tool {

std::string AgentSetup::agent_path() {
  if (const char *path = std::getenv("PROF_AGENT_PATH"); path && *path) return path;
  boost::dll::fs::error_code ec;
  const std::filesystem::path exe = boost::dll::program_location(ec);
  return (exe.parent_path() / ".." / "lib" / "prof" / "libprof-agent.so").lexically_normal();
}

AgentSetup::AgentSetup(const std::vector<SelectedPlugin> &process_sources)
    : sources_(process_sources), name_(core::new_shm_name()) {
  core::remove_stale_regions();
  const std::string agent = agent_path();
  std::error_code ec;
  if (!std::filesystem::exists(agent, ec))
    throw std::runtime_error("the in-process agent is not installed (expected " + agent + ")");
  std::string preload = agent;
  for (const SelectedPlugin &source : sources_)
    preload += ":" + source.plugin->path.string();
  if (const char *existing = std::getenv("LD_PRELOAD"); existing && *existing)
    preload += std::string(":") + existing;
  environment_ = {"LD_PRELOAD=" + preload, "PROF_AGENT_SHM=" + name_};
}

core::ShmRegion &AgentSetup::create_region(const core::EventBusConfig &buffers,
                                           const prof_session_info &session) {
  core::AgentConfig config;
  config.session = session.session_name;
  config.target_pid = session.target_pid;
  config.command = session.command;
  config.host = session.hostname;
  config.step_marker_name = step_marker_name_;
  config.step_marker_domain = step_marker_domain_;
  config.answers_dumps = answers_dumps_;
  config.stall_ns = stall_ns_;
  for (const SelectedPlugin &source : sources_) {
    core::AgentPlugin plugin{source.plugin->name, source.plugin->path.string(), {}};
    for (const auto &[key, value] : source.options.set_values())
      plugin.options.emplace_back(key, value);
    config.plugins.push_back(std::move(plugin));
  }
  core::ShmRegionConfig region;
  region.ring_count = ring_count_for(buffers);
  region.initial_rings = 0;
  region.initial_catalog_bytes = kInitialCatalogBytes;
  region.ring_bytes = buffers.ring_bytes;
  region.watermark_bytes = buffers.watermark_bytes;
  region_ = core::ShmRegion::create(name_, region, config.encode());
  return region_;
}

void AgentSetup::reserve_initial_rings() {
  if (!region_) return;
  // The drain may grow the region too: its count is read from the header.
  const uint32_t published = region_.header()->rings_ready.load(std::memory_order_acquire);
  if (published < kInitialRings) (void)region_.grow(kInitialRings - published);
}

AgentSetup::~AgentSetup() {
  if (region_) region_.unlink();
}

} // namespace prof::tool
