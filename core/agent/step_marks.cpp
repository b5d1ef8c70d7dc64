#include "core/agent/step_marks.hpp"

#include "core/runtime/capture_requests.hpp"
#include "core/runtime/session_clock.hpp"
#include "core/agent/agent_host.hpp"

#include <atomic>
#include <mutex>
#include <prof/event.h>
#include <prof/event.hpp>
#include <prof/profiler_api.h>
#include <prof/thread_track.hpp>
#include <string>
#include <unistd.h>

namespace prof::agent {
namespace {

std::mutex g_step_mutex; // a step's count and start change together
uint64_t g_steps = 0;    // steps ended so far
uint64_t g_step_begin_ns = 0;

PluginHost g_step_host{"steps", nullptr};

// The marking thread's track in the current capture (a new attach or a
// fork declares it again).
prof_track_id thread_track(const Host &host, const AgentState *state) {
  thread_local const AgentState *known_state = nullptr;
  thread_local int known_pid = 0;
  thread_local prof_track_id track = 0;
  if (known_state != state || known_pid != getpid() || track == 0) {
    track = declare_calling_thread_track(host);
    known_state = state;
    known_pid = getpid();
  }
  return track;
}

void emit_step(const AgentState &state, uint64_t number, uint64_t begin, uint64_t end) {
  const Host host(&agent_host_api(), &g_step_host);
  const prof_track_id track = thread_track(host, &state);
  if (track == 0) return;
  static const AgentState *interned_for = nullptr;
  static prof_string_id interned_name = 0, interned_category = 0, interned_key = 0;
  prof_string_id name = 0, category = 0, key = 0;
  {
    // Copied under the lock: a re-attach may intern them again meanwhile.
    std::lock_guard lock(g_step_mutex);
    if (interned_for != &state) {
      interned_name = host.intern("step");
      interned_category = host.intern("prof/step");
      interned_key = host.intern(PROF_STEP_ARG);
      interned_for = &state;
    }
    name = interned_name;
    category = interned_category;
    key = interned_key;
  }
  const prof_arg args[] = {arg_uint(key, number)};
  host.slice(track, begin, end > begin ? end - begin : 0, name, category, 0,
             PROF_CATEGORY_ANNOTATION, args);
}

void post(AgentState &state, uint32_t kind, uint64_t count, uint64_t ts) {
  if (!core::capture_request_wanted(*state.region.header(), kind, nullptr, nullptr)) return;
  core::post_capture_request(*state.region.header(),
                             {kind, pid_for_prof(&state), ts, std::to_string(count), ""});
}

} // namespace

void steps_begin_now() {
  std::lock_guard lock(g_step_mutex);
  g_step_begin_ns = core::session_now_ns();
}

void mark_step() {
  const uint64_t now = core::session_now_ns();
  uint64_t number = 0, begin = 0;
  {
    std::lock_guard lock(g_step_mutex);
    number = ++g_steps;
    begin = g_step_begin_ns;
    g_step_begin_ns = now;
  }
  AgentState *state = agent_state();
  if (!state || state->orphaned.load(std::memory_order_relaxed)) return;
  // The step's range first: a window this boundary closes still holds it.
  emit_step(*state, number, begin, now);
  post(*state, PROF_CAPTURE_STEP, number, now);
}

bool steps_marked() {
  std::lock_guard lock(g_step_mutex);
  return g_steps != 0;
}

void post_step_position(AgentState &state) {
  uint64_t steps = 0;
  {
    std::lock_guard lock(g_step_mutex);
    steps = g_steps;
  }
  post(state, core::kCaptureStepPosition, steps, core::session_now_ns());
}

} // namespace prof::agent
