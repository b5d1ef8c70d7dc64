#include "core/agent/agent_host.hpp"

#include "core/runtime/descriptor_check.hpp"
#include "core/runtime/host_emitters.hpp"

#include <prof/host_api_table.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <unistd.h>
#include <vector>

namespace prof::agent {

PluginHost::PluginHost(std::string name, const prof_plugin_descriptor *descriptor,
                       std::map<std::string, std::string> options)
    : name(std::move(name)), descriptor(descriptor), options(std::move(options)) {
  if (descriptor && descriptor->source) lifecycle.emplace(this->name, *descriptor->source);
}

const char *PluginHost::option(const char *key) const {
  if (!key || !descriptor) return nullptr;
  for (uint32_t i = 0; i < descriptor->option_count; ++i) {
    const prof_option_desc &o = descriptor->options[i];
    if (std::string_view(o.name) != key) continue;
    auto it = options.find(key);
    return it != options.end() ? it->second.c_str() : o.default_value;
  }
  return nullptr;
}

namespace {

PluginHost &self(void *host) { return *static_cast<PluginHost *>(host); }
core::ShmCatalogWriter *catalog() {
  AgentState *state = agent_state();
  return state ? state->catalog.get() : nullptr;
}
// Set on the thread answering a dump while plugins emit unfinished slices.
thread_local bool t_unfinished = false;
// Set instead while they are only looked at (collect_unfinished_slices).
thread_local std::vector<prof_event> *t_collected = nullptr;

// The functions behind prof_host_api; `host` is the PluginHost. Records go
// to the calling thread's shared ring.
struct AgentHostApi : core::HostEmitters<AgentHostApi> {
  static void emit(void *, const prof_event &event) {
    if (t_collected && event.type == PROF_EVENT_SLICE) return t_collected->push_back(event);
    if (!t_unfinished || event.type != PROF_EVENT_SLICE) return agent_emit(event);
    prof_event marked = event;
    marked.flags = PROF_SLICE_UNFINISHED;
    agent_emit(marked);
  }
  static void emit_group(void *, const prof_event *records, uint32_t count) {
    if (t_collected && count != 0 && records[0].type == PROF_EVENT_SLICE)
      return t_collected->push_back(records[0]);
    if (!t_unfinished || count == 0 || records[0].type != PROF_EVENT_SLICE)
      return agent_emit_group(records, count);
    std::vector<prof_event> marked(records, records + count); // the event, then its arguments
    marked[0].flags = PROF_SLICE_UNFINISHED;
    agent_emit_group(marked.data(), count);
  }

  static prof_string_id intern_string(void *, const char *text, size_t length) {
    auto *c = catalog();
    return c && text ? c->intern_string(std::string_view(text, length)) : 0;
  }
  static prof_track_id declare_track(void *, const prof_track_desc *desc) {
    auto *c = catalog();
    if (!c || !desc || desc->struct_size < sizeof(uint32_t) * 2 || !desc->name) return 0;
    prof_track_desc copy{};
    std::memcpy(&copy, desc, std::min<size_t>(desc->struct_size, sizeof copy));
    return c->declare_track(copy);
  }
  static prof_stack_id intern_stack(void *, const prof_string_id *frames, uint32_t count) {
    auto *c = catalog();
    return c && (frames || count == 0) ? c->intern_stack({frames, count}) : 0;
  }
  static prof_clock_id register_clock_domain(void *, const char *name, double frequency_hz) {
    auto *c = catalog();
    return c && name ? c->register_clock(name, frequency_hz) : 0;
  }
  static void add_calibration(void *, prof_clock_id clock, uint64_t ticks, uint64_t ns) {
    if (auto *c = catalog(); c && clock > PROF_CLOCK_TSC) c->add_calibration(clock, ticks, ns);
  }
  static uint64_t now(void *) {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
  }
  static void log(void *host, prof_log_level level, const char *message) {
    PluginHost &h = self(host);
    if (message == nullptr) message = "";
    // An error inside a step explains its failure, said once with it.
    if (level == PROF_LOG_ERROR && h.lifecycle && h.lifecycle->keep_error(message)) return;
    if (level >= PROF_LOG_WARN)
      std::fprintf(stderr, "prof-agent[%d]: %s: %s\n", static_cast<int>(getpid()), h.name.c_str(),
                   message);
  }
  static const char *get_option(void *host, const char *name) { return self(host).option(name); }
  static void count_dropped(void *, prof_drop_cause cause, uint64_t count) {
    AgentState *state = agent_state();
    if (!state || (cause != PROF_DROP_DEVICE_BUFFER_FULL && cause != PROF_DROP_KERNEL_LOST)) return;
    state->region.header()->plugin_drops[cause].fetch_add(count, std::memory_order_relaxed);
  }
  static const prof_session_info *session_info(void *) {
    AgentState *state = agent_state();
    return state ? &state->session : nullptr;
  }
};

constexpr prof_host_api kApi = host_api_table<AgentHostApi>();

} // namespace

const prof_host_api &agent_host_api() { return kApi; }

namespace {
void ask_for_unfinished_slices(const std::vector<PluginHost *> &plugins, uint64_t now) {
  for (PluginHost *plugin : plugins)
    if (auto emit = core::unfinished_emitter(plugin->lifecycle->vtable()))
      emit(plugin->lifecycle->instance(), now);
}
} // namespace

void emit_unfinished_slices(const std::vector<PluginHost *> &plugins, uint64_t now) {
  t_unfinished = true;
  ask_for_unfinished_slices(plugins, now);
  t_unfinished = false;
}

std::vector<prof_event> collect_unfinished_slices(const std::vector<PluginHost *> &plugins,
                                                  uint64_t now) {
  std::vector<prof_event> collected;
  t_collected = &collected;
  ask_for_unfinished_slices(plugins, now);
  t_collected = nullptr;
  return collected;
}

} // namespace prof::agent
