// The agent's process-wide state: the shared region it writes to, the ring
// pool and catalog writer over it, and whether prof is still there.
#pragma once

#include "core/runtime/agent_config.hpp"
#include "core/runtime/ring_pool.hpp"
#include "core/runtime/shm_catalog_writer.hpp"
#include "core/runtime/shm_region.hpp"

#include <prof/plugin.h>

#include <atomic>
#include <memory>
#include <string>

namespace prof::agent {

struct AgentState {
  core::ShmRegion region;
  core::AgentConfig config;
  std::unique_ptr<core::RingPool> pool;
  std::unique_ptr<core::ShmCatalogWriter> catalog;
  prof_session_info session{};
  /// The pid prof knows this process by (its host pid, in a container) and
  /// the one it has here; 0 when prof's is getpid(). See pid_for_prof().
  int32_t pid_seen_by_prof = 0, own_pid = 0;
  /// Set when prof is found gone: emits stop at once.
  std::atomic<bool> orphaned{false};
  /// Set when prof detaches: the thread answering dumps ends.
  std::atomic<bool> answers_stop{false};
};

/// Maps prof's region `name` (through `fd` when prof passed one, else by
/// name), reads the capture's config and starts its process-scope plugins.
/// False with `error` when nothing could start; true with a non-empty
/// `error` when some plugins did not.
/// `pid_seen_by_prof`: the pid prof knows this process by, when not getpid().
bool attach_region(const char *name, std::string *error, int fd = -1, int32_t pid_seen_by_prof = 0);
/// The pid to write into capture requests and tracks: the one prof knows
/// this process by (a forked child's own).
int32_t pid_for_prof(const AgentState *state);
/// Stops and destroys the plugins and stops emitting (prof detached).
void detach_region();

/// The state of this process, nullptr when the agent is not active.
AgentState *agent_state();

/// Emits into this thread's shared ring; on a full ring checks now and then
/// whether prof is still draining, and stops emitting when it is not.
void agent_emit(const prof_event &event);
/// Emits an event with its arguments records (core::pack_event_args), all or none.
void agent_emit_group(const prof_event *records, uint32_t count);

} // namespace prof::agent
