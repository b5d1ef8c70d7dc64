// libprof-agent.so: preloaded into the profiled application and every
// process it starts. When PROF_AGENT_SHM names a prof region, it maps it,
// runs the capture's process-scope plugins, and gives each thread a ring in
// the region. Without it, or when anything is wrong, it does nothing: the
// application must never be harmed by prof.
#include "core/agent/agent_host.hpp"
#include "core/agent/agent_state.hpp"
#include "core/agent/crash_witness.hpp"
#include "core/agent/dynamic_listener.hpp"
#include "core/agent/own_command_line.hpp"
#include "core/agent/step_marks.hpp"
#include "core/agent/trigger_watch.hpp"
#include "core/agent/unfinished_answers.hpp"
#include "core/runtime/capture_requests.hpp"
#include "core/runtime/descriptor_check.hpp"
#include "core/runtime/session_clock.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <prof/launcher_rank.hpp>
#include <prof/profiler_api.h>
#include <prof/python/python_startup.hpp>
#include <pthread.h>
#include <set>
#include <sys/prctl.h>
#include <unistd.h>
#include <vector>

namespace prof::agent {

namespace {

AgentState *g_state = nullptr;
core::ShmCatalogWriter *g_catalog_left_by_fork = nullptr; // see at_fork_child
bool g_answering = false;                                 ///< this process's thread answers dumps
// Never destroyed: the agent's threads may read it while the process exits.
// Made on first use: the agent's constructor may run before this file's
// dynamic initializers.
std::vector<PluginHost *> &running_plugins() {
  static auto *plugins = new std::vector<PluginHost *>;
  return *plugins;
}
// Held while the plugins change or stop, and while they answer a dump (on
// the agent's own thread): never by the application's threads.
std::mutex g_plugins_mutex;

void say(const std::string &text) {
  std::fprintf(stderr, "prof-agent[%d]: %s\n", static_cast<int>(getpid()), text.c_str());
}

std::string process_command_line() {
  std::string text = own_command_line();
  return text.size() > 256 ? text.substr(0, 256) + "..." : text;
}

// The tracks of the image this process runs now, named before any plugin
// declares them: its command line (and launcher rank), and the starting
// thread's name. A process that exec'd had them named by its earlier image;
// these names replace those.
void declare_image_tracks() {
  std::string name = process_command_line();
  if (const char *variable = launcher_rank_variable()) name += rank_suffix(std::getenv(variable));
  const auto pid = static_cast<int32_t>(getpid());
  prof_track_desc process{
      sizeof(prof_track_desc), PROF_TRACK_PROCESS, 0, name.c_str(), pid, 0, -1, nullptr,
      PROF_CLOCK_SESSION};
  const prof_track_id process_track = g_state->catalog->declare_track(process, true);
  char thread_name[17] = {};
  if (process_track == 0 || prctl(PR_GET_NAME, thread_name) != 0) return;
  prof_track_desc thread{sizeof(prof_track_desc),
                         PROF_TRACK_THREAD,
                         process_track,
                         thread_name,
                         pid,
                         static_cast<int32_t>(gettid()),
                         -1,
                         nullptr,
                         PROF_CLOCK_SESSION};
  g_state->catalog->declare_track(thread, true);
}

PluginHost *start_plugin(const core::AgentPlugin &plugin) {
  // Process-scope plugins are preloaded too, so this finds the loaded copy.
  void *library = dlopen(plugin.path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!library) {
    say("cannot load plugin " + plugin.name + ": " + dlerror());
    return nullptr;
  }
  auto entry = reinterpret_cast<prof_plugin_entry_fn>(dlsym(library, PROF_PLUGIN_ENTRY_SYMBOL));
  const prof_plugin_descriptor *descriptor = entry ? entry() : nullptr;
  const std::string problem = core::check_descriptor(descriptor);
  if (!problem.empty() || descriptor->kind != PROF_KIND_SOURCE) {
    say("plugin " + plugin.name + " refused: " + (problem.empty() ? "not a source" : problem));
    return nullptr;
  }
  auto *host =
      new PluginHost(plugin.name, descriptor, {plugin.options.begin(), plugin.options.end()});
  if (!host->lifecycle->create(agent_host_api(), host) || !host->lifecycle->configure() ||
      !host->lifecycle->start()) {
    say(host->lifecycle->error());
    delete host;
    return nullptr;
  }
  return host;
}

void start_answering(AgentState &state);

void at_fork_child() {
  // The forking thread's ring belongs to the parent: claim a new one.
  core::RingPool::reset_in_forked_child();
  // A parent's thread may have been interning when the process was copied,
  // leaving the writer's lock taken and its tables mid-update here: the
  // child writes through a new one (the shared ids stay valid; a string
  // interned again gets a second id). The old one is left as it is, kept
  // reachable for leak checkers.
  g_catalog_left_by_fork = g_state->catalog.release();
  g_state->catalog = std::make_unique<core::ShmCatalogWriter>(g_state->region);
  forget_dynamic_listener();
  // Taken by the thread answering a dump when the process was copied: that
  // thread is not in the child, which answers with one of its own (a forked
  // worker's open calls are in the dumps too).
  new (&g_plugins_mutex) std::mutex;
  if (g_answering) start_answering(*g_state);
}

void stop_plugins() {
  std::lock_guard lock(g_plugins_mutex);
  // Stopped in reverse order; the region stays mapped so late emits are harmless.
  for (auto it = running_plugins().rbegin(); it != running_plugins().rend(); ++it) {
    (*it)->lifecycle->stop();
    (*it)->lifecycle->flush();
  }
}

// A flight recorder dump: what each thread is inside now.
void answer_dump(uint64_t now) {
  std::lock_guard lock(g_plugins_mutex);
  emit_unfinished_slices(running_plugins(), now);
}

// --hang-timeout: a communication call open that long is told to prof, once.
void watch_stalls(uint64_t now) {
  // The calls open at the last look; never destroyed (this runs on the
  // agent's thread, which may still look while the process exits).
  static auto &told = *new std::set<std::pair<prof_track_id, uint64_t>>;
  AgentState *state = g_state;
  if (!state ||
      !core::capture_request_wanted(*state->region.header(), core::kCaptureStall, nullptr, nullptr))
    return;
  std::vector<prof_event> open;
  {
    std::lock_guard lock(g_plugins_mutex);
    open = collect_unfinished_slices(running_plugins(), now);
  }
  std::set<std::pair<prof_track_id, uint64_t>> still_open;
  for (const prof_event &call : open) {
    if (call.kind != PROF_CATEGORY_COMMUNICATION || call.ts + state->config.stall_ns > now)
      continue;
    still_open.emplace(call.track, call.ts);
    if (told.contains({call.track, call.ts})) continue;
    core::post_capture_request(
        *state->region.header(),
        {core::kCaptureStall, pid_for_prof(state), call.ts, std::to_string(now - call.ts), ""});
  }
  told = std::move(still_open);
}

// The thread that answers dumps (and, with --hang-timeout, looks for stalls).
void start_answering(AgentState &state) {
  std::string thread_error;
  std::function<void(uint64_t)> probe;
  if (state.config.stall_ns != 0) probe = &watch_stalls;
  g_answering = start_unfinished_answers(state, &answer_dump, std::move(probe), &thread_error);
  if (!g_answering) say(thread_error + "; dumps will not show what this process is inside");
}

// `import prof` (prof.step()) in the application's Python programs: the
// plugins' python-site, lib/prof/plugins/python-site beside this agent.
void offer_import_prof() {
  Dl_info self{};
  if (dladdr(reinterpret_cast<const void *>(&offer_import_prof), &self) == 0 || !self.dli_fname)
    return;
  const std::string agent = self.dli_fname;
  const std::string folder = agent.substr(0, agent.rfind('/') + 1) + "plugins/python-site";
  if (access((folder + "/prof.py").c_str(), R_OK) == 0) prof::python::offer_python_site(folder);
}

__attribute__((constructor)) void agent_start() {
  steps_begin_now();
  offer_import_prof();
  const char *name = std::getenv("PROF_AGENT_SHM");
  if (name && *name) {
    std::string error;
    if (!attach_region(name, &error)) say(error + "; this process is not profiled");
    return;
  }
  // PROF_MODE=dynamic: wait, at no cost, for `prof --pid` to attach.
  if (const char *mode = std::getenv("PROF_MODE"); mode && std::string(mode) == "dynamic") {
    pthread_atfork(nullptr, nullptr, &forget_dynamic_listener);
    std::string error;
    if (!start_dynamic_listener(&error)) say(error + "; prof cannot attach to this process");
    // PROF_TRIGGER_DIR: capture requests in a (shared) folder start prof.
    if (const char *dir = std::getenv("PROF_TRIGGER_DIR"); dir && *dir) {
      pthread_atfork(nullptr, nullptr, &forget_trigger_watch);
      if (!start_trigger_watch(dir, &error)) say(error + "; capture requests are not watched");
    }
  }
}

__attribute__((destructor)) void agent_stop() {
  if (g_state) stop_unfinished_answers(*g_state);
  stop_trigger_watch();
  stop_dynamic_listener();
  stop_plugins();
}

} // namespace

int32_t pid_for_prof(const AgentState *state) {
  const auto pid = static_cast<int32_t>(getpid());
  return state && state->pid_seen_by_prof != 0 && state->own_pid == pid ? state->pid_seen_by_prof
                                                                        : pid;
}

bool attach_region(const char *name, std::string *error, int fd, int32_t pid_seen_by_prof) {
  auto state = std::make_unique<AgentState>();
  if (!(fd >= 0 ? state->region.attach_fd(fd, name, error) : state->region.attach(name, error)))
    return false;
  auto config = core::AgentConfig::decode(state->region.config_text(), error);
  if (!config) return false;
  state->config = std::move(*config);
  // Sizes as found at attach: a later wild write to the header cannot move the rings.
  core::ShmHeader &h = *state->region.header();
  const core::ShmLayout &l = state->region.layout();
  state->pool = std::make_unique<core::RingPool>(state->region.rings(), l.ring_stride, h.slots,
                                                 l.ring_count, l.ring_capacity, l.watermark_events,
                                                 &h.no_ring_drops, false, &h.rings_ready);
  state->pool->set_grow(
      [](void *region) { return static_cast<core::ShmRegion *>(region)->reserve_next_ring(); },
      &state->region);
  state->catalog = std::make_unique<core::ShmCatalogWriter>(state->region);
  if (pid_seen_by_prof > 0 && pid_seen_by_prof != getpid()) {
    state->pid_seen_by_prof = pid_seen_by_prof;
    state->own_pid = static_cast<int32_t>(getpid());
    state->catalog->write_pid_as(state->own_pid, pid_seen_by_prof);
  }
  state->session = prof_session_info{sizeof(prof_session_info), state->config.session.c_str(),
                                     state->config.target_pid, state->config.command.c_str(),
                                     state->config.host.c_str()};
  // A state of an earlier attach stays allocated: a thread may still hold it.
  g_state = state.release();
  declare_image_tracks();
  static bool fork_handler = false;
  if (!fork_handler) pthread_atfork(nullptr, nullptr, &at_fork_child);
  fork_handler = true;
  ProfLibraries libraries;
  for (const core::AgentPlugin &plugin : g_state->config.plugins)
    libraries.emplace_back(plugin.name, plugin.path);
  install_crash_witness(libraries);
  {
    std::lock_guard lock(g_plugins_mutex);
    running_plugins().clear();
    for (const core::AgentPlugin &plugin : g_state->config.plugins)
      if (PluginHost *host = start_plugin(plugin)) running_plugins().push_back(host);
  }
  // Told once the plugins run: a step prof picks past this one is recorded
  // whole (a plugin that starts inside a running Python, as torch's, does
  // so on the thread that marks the steps, before its next mark).
  post_step_position(*g_state);
  if (g_state->config.answers_dumps || g_state->config.stall_ns != 0) start_answering(*g_state);
  if (running_plugins().size() != g_state->config.plugins.size()) {
    *error = std::to_string(g_state->config.plugins.size() - running_plugins().size()) +
             " plugins did not start (see the application's stderr)";
    return true; // the others run
  }
  error->clear();
  return true;
}

void detach_region() {
  if (g_state) stop_unfinished_answers(*g_state);
  g_answering = false;
  stop_plugins();
  {
    std::lock_guard lock(g_plugins_mutex);
    // Each PluginHost stays allocated: a plugin's thread may still hold it.
    for (PluginHost *host : running_plugins())
      host->lifecycle->destroy();
    running_plugins().clear();
  }
  if (g_state) g_state->orphaned.store(true); // emits stop here; prof drains what came
}

AgentState *agent_state() { return g_state; }

namespace {
// A full ring: now and then, see whether prof still drains at all. Counted
// per thread: a shared count cost every dropping emit a locked instruction.
void note_drop(AgentState *state) {
  thread_local uint32_t drops_since_check = 0;
  if (drops_since_check++ % 1024 != 0) return;
  const core::ShmHeader &header = *state->region.header();
  // In a container, prof's pid is not this namespace's to look up.
  if (header.ids_unchecked.load(std::memory_order_relaxed)) return;
  if (kill(header.prof_pid, 0) != 0 && errno == ESRCH) state->orphaned.store(true);
}
} // namespace

void agent_emit(const prof_event &event) {
  AgentState *state = g_state;
  if (!state || state->orphaned.load(std::memory_order_relaxed)) return;
  if (!state->pool->emit(event)) note_drop(state);
}

void agent_emit_group(const prof_event *records, uint32_t count) {
  AgentState *state = g_state;
  if (!state || state->orphaned.load(std::memory_order_relaxed)) return;
  if (!state->pool->emit_group(records, count)) note_drop(state);
}

} // namespace prof::agent

// prof_start()/prof_stop() and annotation ranges find this by name
// (prof/profiler_api.h).
extern "C" __attribute__((visibility("default"))) int
prof_agent_capture_request(int kind, const char *name, const char *domain) {
  if (kind == PROF_CAPTURE_STEP) {
    // Counted while the agent waits for prof too: attached later, prof
    // knows which step each process is in.
    prof::agent::mark_step();
    return prof::agent::agent_state() ? 0 : -1;
  }
  if (kind == PROF_CAPTURE_STEPS_MARKED) return prof::agent::steps_marked() ? 1 : 0;
  prof::agent::AgentState *state = prof::agent::agent_state();
  if (!state || kind < PROF_CAPTURE_START || kind > PROF_CAPTURE_RANGE_END) return -1;
  // --step-marker NAME: the range's end is a step's.
  if (kind == PROF_CAPTURE_RANGE_END && name && !state->config.step_marker_name.empty() &&
      prof::core::range_matches(name, domain ? domain : "", state->config.step_marker_name,
                                state->config.step_marker_domain))
    prof::agent::mark_step();
  // Taken: prof reads it, or does not wait for it.
  if (!prof::core::capture_request_wanted(*state->region.header(), static_cast<uint32_t>(kind),
                                          name, domain))
    return 0;
  prof::core::post_capture_request(*state->region.header(),
                                   {static_cast<uint32_t>(kind), prof::agent::pid_for_prof(state),
                                    prof::core::session_now_ns(), name ? name : "",
                                    domain ? domain : ""});
  return 0;
}
