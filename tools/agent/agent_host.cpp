#include "tools/agent/agent_host.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <unistd.h>

namespace prof::agent {

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

prof_string_id intern_string(void *, const char *text, size_t length) {
  auto *c = catalog();
  return c && text ? c->intern_string(std::string_view(text, length)) : 0;
}
prof_track_id declare_track(void *, const prof_track_desc *desc) {
  auto *c = catalog();
  if (!c || !desc || desc->struct_size < sizeof(uint32_t) * 2 || !desc->name) return 0;
  prof_track_desc copy{};
  std::memcpy(&copy, desc, std::min<size_t>(desc->struct_size, sizeof copy));
  return c->declare_track(copy);
}
prof_stack_id intern_stack(void *, const prof_string_id *frames, uint32_t count) {
  auto *c = catalog();
  return c && (frames || count == 0) ? c->intern_stack({frames, count}) : 0;
}
void emit_slice(void *, prof_track_id track, uint64_t begin, uint64_t duration,
                prof_string_id name, prof_string_id category, uint64_t correlation) {
  agent_emit(prof_event{PROF_EVENT_SLICE, 0, 0, track, name, category, begin, duration,
                        correlation, 0});
}
void emit_instant(void *, prof_track_id track, uint64_t ts, prof_string_id name,
                  prof_string_id category) {
  agent_emit(prof_event{PROF_EVENT_INSTANT, 0, 0, track, name, category, ts, 0, 0, 0});
}
void emit_counter(void *, prof_track_id track, uint64_t ts, double value) {
  agent_emit(prof_event{PROF_EVENT_COUNTER, 0, 0, track, 0, 0, ts, 0, 0, value});
}
void emit_counter_for(void *, prof_track_id track, uint64_t ts, double value, uint64_t id) {
  agent_emit(prof_event{PROF_EVENT_COUNTER, 0, 0, track, 0, 0, ts, 0, id, value});
}
void emit_sample(void *, prof_track_id track, uint64_t ts, prof_stack_id stack) {
  agent_emit(prof_event{PROF_EVENT_SAMPLE, 0, 0, track, 0, 0, ts, 0, stack, 0});
}
void emit_stack(void *, prof_track_id track, uint64_t ts, prof_stack_id stack,
                prof_string_id category) {
  agent_emit(prof_event{PROF_EVENT_SAMPLE, 0, 0, track, 0, category, ts, 0, stack, 0});
}
void emit_flow(void *, prof_track_id track, uint64_t ts, uint64_t flow, prof_flow_phase phase) {
  agent_emit(prof_event{PROF_EVENT_FLOW, static_cast<uint8_t>(phase), 0, track, 0, 0, ts, 0, flow,
                        0});
}
prof_clock_id register_clock_domain(void *, const char *name, double frequency_hz) {
  auto *c = catalog();
  return c && name ? c->register_clock(name, frequency_hz) : 0;
}
void add_calibration(void *, prof_clock_id clock, uint64_t ticks, uint64_t ns) {
  if (auto *c = catalog(); c && clock > PROF_CLOCK_TSC) c->add_calibration(clock, ticks, ns);
}
uint64_t now(void *) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}
void log(void *host, prof_log_level level, const char *message) {
  PluginHost &h = self(host);
  if (level == PROF_LOG_ERROR) h.last_error = message ? message : "";
  if (level >= PROF_LOG_WARN)
    std::fprintf(stderr, "prof-agent[%d]: %s: %s\n", static_cast<int>(getpid()), h.name.c_str(),
                 message ? message : "");
}
const char *get_option(void *host, const char *name) { return self(host).option(name); }
const prof_session_info *session_info(void *) {
  AgentState *state = agent_state();
  return state ? &state->session : nullptr;
}

const prof_host_api kApi = {
    sizeof(prof_host_api), &intern_string, &declare_track,         &intern_stack,
    &emit_slice,           &emit_instant,  &emit_counter,          &emit_sample,
    &emit_flow,            &register_clock_domain, &add_calibration, &now,
    &log,                  &get_option,    &session_info,          &emit_stack,
    &emit_counter_for,
};

} // namespace

const prof_host_api &agent_host_api() { return kApi; }

} // namespace prof::agent
