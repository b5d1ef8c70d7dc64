#include "core/plugin_host/export_view.hpp"

namespace prof::core {

const char *ExportView::option(const char *) const { return nullptr; }
std::vector<prof_track_id> ExportView::processes(int32_t) const { return {}; }

namespace {
/// What `prof merge` appends to an input's top-level, process and device
/// tracks' names (" [node1 rank 3]"), "" when `name` has none.
std::string_view input_label(std::string_view name) {
  if (!name.ends_with(']')) return {};
  const size_t open = name.rfind(" [");
  return open == std::string_view::npos ? std::string_view{} : name.substr(open);
}
} // namespace

prof_track_id ExportView::process_track(int32_t pid, prof_track_id near) const {
  const std::vector<prof_track_id> found = processes(pid);
  if (found.size() < 2) return found.empty() ? 0 : found.front();
  std::string_view label;
  // Bounded walk: a malformed report with a parent cycle must not hang us.
  for (int depth = 0; near != 0 && label.empty() && depth < 64; ++depth) {
    const prof_track_desc *desc = track(near);
    if (desc == nullptr) break;
    label = input_label(desc->name ? desc->name : "");
    near = desc->parent;
  }
  for (const prof_track_id process : found) {
    const prof_track_desc *desc = track(process);
    if (!label.empty() && desc != nullptr && input_label(desc->name ? desc->name : "") == label)
      return process;
  }
  return found.front();
}
void ExportView::print(std::string_view) {}
void ExportView::log(prof_log_level, std::string_view) {}

namespace {

ExportView &view(void *host) { return *static_cast<ExportView *>(host); }

// Hands a span to C: its size in *count, nullptr when empty.
template <typename T> const T *to_c(std::span<const T> items, uint32_t *count) {
  if (count) *count = static_cast<uint32_t>(items.size());
  return items.empty() ? nullptr : items.data();
}

const char *string(void *host, prof_string_id id) { return view(host).string(id); }
const prof_track_desc *track(void *host, prof_track_id id) { return view(host).track(id); }
const prof_string_id *stack(void *host, prof_stack_id id, uint32_t *count) {
  return to_c(view(host).stack(id), count);
}
const prof_session_info *session_info(void *host) { return &view(host).session(); }
void print(void *host, const char *line) { view(host).print(line ? line : ""); }
void log(void *host, prof_log_level level, const char *message) {
  view(host).log(level, message ? message : "");
}
const char *get_option(void *host, const char *name) { return view(host).option(name); }
uint64_t dropped_events(void *host) { return view(host).dropped(PROF_DROP_RING_FULL); }
uint64_t dropped_by_cause(void *host, prof_drop_cause cause) { return view(host).dropped(cause); }
const prof_arg *args(void *host, prof_args_id id, uint32_t *count) {
  return to_c(view(host).args(id), count);
}
prof_track_id process_track(void *host, int32_t pid, prof_track_id near) {
  return view(host).process_track(pid, near);
}

const prof_export_api table = {
    sizeof(prof_export_api),
    &string,
    &track,
    &stack,
    &session_info,
    &print,
    &log,
    &get_option,
    &dropped_events,
    &args,
    &dropped_by_cause,
    &process_track,
};

} // namespace

const prof_export_api &export_api() { return table; }

} // namespace prof::core
