// Header-only C++ helpers over the prof plugin C ABI: typed option access,
// string_view interning, and adapters that turn a C++ class into a vtable.
#ifndef PROF_PLUGIN_HPP
#define PROF_PLUGIN_HPP

#include <prof/event.hpp>
#include <prof/plugin.h>

#include <array>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace prof {

/// A source plugin's view of the host: thin, inlined wrappers over prof_host_api.
class Host {
public:
  Host(const prof_host_api *api, void *host) : api_(api), host_(host) {}

  /// Interns `text` and returns its id.
  prof_string_id intern(std::string_view text) const {
    return api_->intern_string(host_, text.data(), text.size());
  }
  /// Declares a track; `unit` only for counters. `pid` of a track that is
  /// no process or thread is its owner, `flags` PROF_TRACK_* bits (ABI 1.10;
  /// an older host ignores both there).
  prof_track_id track(prof_track_kind kind, std::string_view name, prof_track_id parent = 0,
                      int pid = 0, int tid = 0, int index = -1, const char *unit = nullptr,
                      prof_clock_id clock = PROF_CLOCK_SESSION, uint32_t flags = 0) const {
    std::string owned(name);
    prof_track_desc desc{
        sizeof(prof_track_desc), kind, parent, owned.c_str(), pid, tid, index, unit, clock, flags};
    return api_->declare_track(host_, &desc);
  }
  void slice(prof_track_id t, uint64_t begin, uint64_t duration, prof_string_id name,
             prof_string_id category = 0, uint64_t correlation = 0) const {
    api_->emit_slice(host_, t, begin, duration, name, category, correlation);
  }
  void instant(prof_track_id t, uint64_t ts, prof_string_id name,
               prof_string_id category = 0) const {
    api_->emit_instant(host_, t, ts, name, category);
  }
  /// A slice tagged with its well-known category and carrying typed
  /// arguments (ABI 1.5); on older hosts the plain slice.
  void slice(prof_track_id t, uint64_t begin, uint64_t duration, prof_string_id name,
             prof_string_id category, uint64_t correlation, prof_category kind,
             std::span<const prof_arg> args = {}) const {
    if (has_args_api())
      api_->emit_slice_args(host_, t, begin, duration, name, category, correlation,
                            static_cast<uint16_t>(kind), args.data(),
                            static_cast<uint32_t>(args.size()));
    else
      api_->emit_slice(host_, t, begin, duration, name, category, correlation);
  }
  /// An instant with a well-known category and typed arguments (ABI 1.5); on
  /// older hosts the plain instant.
  void instant(prof_track_id t, uint64_t ts, prof_string_id name, prof_string_id category,
               prof_category kind, std::span<const prof_arg> args = {}) const {
    if (has_args_api())
      api_->emit_instant_args(host_, t, ts, name, category, static_cast<uint16_t>(kind),
                              args.data(), static_cast<uint32_t>(args.size()));
    else
      api_->emit_instant(host_, t, ts, name, category);
  }
  /// Whether the host takes categories and arguments (ABI 1.5).
  bool has_args_api() const {
    return api_->struct_size >=
           offsetof(prof_host_api, emit_instant_args) + sizeof(api_->emit_instant_args);
  }
  void counter(prof_track_id t, uint64_t ts, double value) const {
    api_->emit_counter(host_, t, ts, value);
  }
  /// A counter value measured over the work `correlation` (ABI 1.3); on
  /// older hosts the value without the tie.
  void counter(prof_track_id t, uint64_t ts, double value, uint64_t correlation) const {
    if (api_->struct_size >=
        offsetof(prof_host_api, emit_counter_for) + sizeof(api_->emit_counter_for))
      api_->emit_counter_for(host_, t, ts, value, correlation);
    else
      api_->emit_counter(host_, t, ts, value);
  }
  /// A call stack belonging to something on `t` at `ts` (category says
  /// what); on hosts older than ABI 1.2, a plain sample.
  void stack(prof_track_id t, uint64_t ts, prof_stack_id stack, prof_string_id category) const {
    if (api_->struct_size >= offsetof(prof_host_api, emit_stack) + sizeof(api_->emit_stack))
      api_->emit_stack(host_, t, ts, stack, category);
    else
      api_->emit_sample(host_, t, ts, stack);
  }
  uint64_t now() const { return api_->now(host_); }
  /// Counts records lost before they became events (ABI 1.6: a device
  /// buffer that overflowed, records the kernel lost); on older hosts
  /// nothing, and the plugin's own warning is all the user sees.
  void count_dropped(prof_drop_cause cause, uint64_t count) const {
    if (count > 0 &&
        api_->struct_size >= offsetof(prof_host_api, count_dropped) + sizeof(api_->count_dropped))
      api_->count_dropped(host_, cause, count);
  }
  void log(prof_log_level level, const std::string &message) const {
    api_->log(host_, level, message.c_str());
  }
  void error(const std::string &message) const { log(PROF_LOG_ERROR, message); }

  /// Option text as validated by the host (the default when unset), nullopt
  /// when it hands none. Read options through prof::DeclaredOptions
  /// (prof/declared_options.hpp), which falls back on the option table.
  std::optional<std::string_view> option(const char *name) const {
    const char *value = api_->get_option(host_, name);
    if (value == nullptr) return std::nullopt;
    return std::string_view(value);
  }
  const prof_session_info &session() const { return *api_->session_info(host_); }
  const prof_host_api *api() const { return api_; }
  void *context() const { return host_; }

private:
  const prof_host_api *api_;
  void *host_;
};

/// Prints one line of a query answer.
using QueryPrinter = void (*)(void *ctx, const char *line);

/// Builds a prof_source_vtable from a class T with a constructor T(Host) and
/// member functions configure/start/stop/suspend/resume/flush returning bool
/// (false after logging the reason). A T that also has
/// `bool query(std::string_view what, QueryPrinter print, void *ctx)` answers
/// queries (--query-activities); one with `bool emit_unfinished(uint64_t now)`
/// emits its unfinished slices at flight recorder dumps. Exceptions never
/// cross the boundary.
template <class T> struct SourceAdapter {
  static void *create(const prof_host_api *api, void *host) noexcept {
    try {
      return new T(Host(api, host));
    } catch (const std::exception &e) {
      api->log(host, PROF_LOG_ERROR, e.what());
      return nullptr;
    } catch (...) {
      return nullptr;
    }
  }
  static void destroy(void *self) noexcept { delete static_cast<T *>(self); }
  template <bool (T::*F)()> static prof_status call(void *self) noexcept {
    try {
      return (static_cast<T *>(self)->*F)() ? PROF_OK : PROF_ERROR;
    } catch (...) {
      return PROF_ERROR;
    }
  }
  static prof_status query(void *self, const char *what, QueryPrinter print, void *ctx) noexcept {
    try {
      return static_cast<T *>(self)->query(std::string_view(what ? what : ""), print, ctx)
                 ? PROF_OK
                 : PROF_ERROR;
    } catch (...) {
      return PROF_ERROR;
    }
  }
  static constexpr auto query_function() {
    using Fn = prof_status (*)(void *, const char *, QueryPrinter, void *);
    if constexpr (requires(T & t, QueryPrinter p) { t.query(std::string_view(), p, nullptr); })
      return static_cast<Fn>(&query);
    else
      return static_cast<Fn>(nullptr);
  }
  static prof_status emit_unfinished(void *self, uint64_t now) noexcept {
    try {
      return static_cast<T *>(self)->emit_unfinished(now) ? PROF_OK : PROF_ERROR;
    } catch (...) {
      return PROF_ERROR;
    }
  }
  static constexpr auto emit_unfinished_function() {
    using Fn = prof_status (*)(void *, uint64_t);
    if constexpr (requires(T & t) { t.emit_unfinished(uint64_t{}); })
      return static_cast<Fn>(&emit_unfinished);
    else
      return static_cast<Fn>(nullptr);
  }
  static constexpr prof_source_vtable vtable() {
    return prof_source_vtable{sizeof(prof_source_vtable),
                              &create,
                              &destroy,
                              query_function(),
                              &call<&T::configure>,
                              &call<&T::start>,
                              &call<&T::stop>,
                              &call<&T::suspend>,
                              &call<&T::resume>,
                              &call<&T::flush>,
                              emit_unfinished_function()};
  }
};

/// An exporter's view of the host: wrappers over prof_export_api.
class ExportHost {
public:
  ExportHost(const prof_export_api *api, void *host) : api_(api), host_(host) {}
  std::string_view string(prof_string_id id) const { return api_->string(host_, id); }
  const prof_track_desc *track(prof_track_id id) const { return api_->track(host_, id); }
  /// Frames of a call stack, function-name string ids, leaf first.
  std::pair<const prof_string_id *, uint32_t> stack(prof_stack_id id) const {
    uint32_t count = 0;
    const prof_string_id *frames = api_->stack(host_, id, &count);
    return {frames, frames ? count : 0};
  }
  const prof_session_info &session() const { return *api_->session_info(host_); }
  void print(const std::string &line) const { api_->print(host_, line.c_str()); }
  void log(prof_log_level level, const std::string &message) const {
    api_->log(host_, level, message.c_str());
  }
  /// As Host::option: read options through prof::DeclaredOptions.
  std::optional<std::string_view> option(const char *name) const {
    const char *value = api_->get_option(host_, name);
    if (value == nullptr) return std::nullopt;
    return std::string_view(value);
  }
  uint64_t dropped_events() const { return api_->dropped_events(host_); }
  /// Events or records the capture lost under `cause` (ABI 1.6); on older
  /// hosts only ring-full drops are known.
  uint64_t dropped(prof_drop_cause cause) const {
    if (api_->struct_size >=
        offsetof(prof_export_api, dropped_by_cause) + sizeof(api_->dropped_by_cause))
      return api_->dropped_by_cause(host_, cause);
    return cause == PROF_DROP_RING_FULL ? dropped_events() : 0;
  }
  /// The process track whose work `track` holds: the process at or above
  /// it, or the one its owner (ABI 1.10: prof_track_desc::pid of a track that
  /// is no process or thread) names; 0 for a shared track or one of no
  /// process. On hosts older than ABI 1.10 owners are not known.
  prof_track_id owner_process(prof_track_id track) const {
    const bool owners =
        api_->struct_size >= offsetof(prof_export_api, process_track) + sizeof(api_->process_track);
    // Bounded walk: a malformed report with a parent cycle must not hang us.
    for (int depth = 0; track != 0 && depth < 64; ++depth) {
      const prof_track_desc *desc = this->track(track);
      if (desc == nullptr) return 0;
      if (desc->kind == PROF_TRACK_PROCESS) return track;
      if (desc->kind != PROF_TRACK_THREAD && owners) {
        const bool shared = desc->struct_size > offsetof(prof_track_desc, flags) &&
                            (desc->flags & PROF_TRACK_SHARED) != 0;
        if (shared) return 0;
        if (desc->pid > 0)
          if (const prof_track_id owner = api_->process_track(host_, desc->pid, track))
            return owner;
      }
      track = desc->parent;
    }
    return 0;
  }
  /// The arguments of a slice or instant (prof_event::args); empty for none
  /// and on hosts older than ABI 1.5.
  std::span<const prof_arg> args(uint64_t id) const {
    if (id == 0 || api_->struct_size < offsetof(prof_export_api, args) + sizeof(api_->args))
      return {};
    uint32_t count = 0;
    const prof_arg *args = api_->args(host_, static_cast<prof_args_id>(id), &count);
    return args ? std::span<const prof_arg>(args, count) : std::span<const prof_arg>();
  }
  /// An argument's value as text; a call stack as its frames, leaf first,
  /// joined by " <- ".
  std::string arg_text(const prof_arg &a) const {
    if (a.type != PROF_ARG_STACK)
      return prof::arg_text(a, [this](prof_string_id s) { return string(s); });
    const auto [frames, count] = stack(static_cast<prof_stack_id>(a.value.u));
    std::string text;
    for (uint32_t i = 0; i < count; ++i) {
      if (i > 0) text += " <- ";
      text += string(frames[i]);
    }
    return text;
  }
  /// The arguments of set `id` as "key=value" joined by `separator`; "" for none.
  std::string args_text(uint64_t id, std::string_view separator) const {
    std::string text;
    for (const prof_arg &a : args(id)) {
      if (!text.empty()) text += separator;
      text += string(a.key);
      text += '=';
      text += arg_text(a);
    }
    return text;
  }
  const prof_export_api *api() const { return api_; }
  void *context() const { return host_; }

private:
  const prof_export_api *api_;
  void *host_;
};

/// Builds a prof_exporter_vtable from a class T with T(ExportHost) and
/// bool begin(), bool consume(const prof_event*, size_t), bool end().
template <class T> struct ExporterAdapter {
  static void *create(const prof_export_api *api, void *host) noexcept {
    try {
      return new T(ExportHost(api, host));
    } catch (const std::exception &e) {
      api->log(host, PROF_LOG_ERROR, e.what());
      return nullptr;
    } catch (...) {
      return nullptr;
    }
  }
  static void destroy(void *self) noexcept { delete static_cast<T *>(self); }
  static prof_status begin(void *self) noexcept {
    try {
      return static_cast<T *>(self)->begin() ? PROF_OK : PROF_ERROR;
    } catch (...) {
      return PROF_ERROR;
    }
  }
  static prof_status consume(void *self, const prof_event *events, size_t count) noexcept {
    try {
      return static_cast<T *>(self)->consume(events, count) ? PROF_OK : PROF_ERROR;
    } catch (...) {
      return PROF_ERROR;
    }
  }
  static prof_status end(void *self) noexcept {
    try {
      return static_cast<T *>(self)->end() ? PROF_OK : PROF_ERROR;
    } catch (...) {
      return PROF_ERROR;
    }
  }
  static constexpr prof_exporter_vtable vtable() {
    return prof_exporter_vtable{
        sizeof(prof_exporter_vtable), &create, &destroy, &begin, &consume, &end};
  }
};

/// The name exporters write for a track kind ("engine"); "custom" for a
/// kind this header does not know.
inline const char *track_kind_name(prof_track_kind kind) {
  switch (kind) {
  case PROF_TRACK_PROCESS:
    return "process";
  case PROF_TRACK_THREAD:
    return "thread";
  case PROF_TRACK_DEVICE:
    return "device";
  case PROF_TRACK_CLUSTER:
    return "cluster";
  case PROF_TRACK_ENGINE:
    return "engine";
  case PROF_TRACK_COUNTER:
    return "counter";
  case PROF_TRACK_NETWORK:
    return "network";
  case PROF_TRACK_COMM:
    return "comm";
  case PROF_TRACK_CPU:
    return "cpu";
  case PROF_TRACK_CUSTOM:
    break;
  }
  return "custom";
}

/// Fills the fixed part of a descriptor for the ABI this header declares;
/// `vendor` is who ships the plugin, as --plugin-list shows it.
constexpr prof_plugin_descriptor make_descriptor(const char *name, const char *version,
                                                 const char *description, prof_plugin_kind kind,
                                                 prof_plugin_scope scope,
                                                 const prof_option_desc *options,
                                                 uint32_t option_count, const char *vendor) {
  return prof_plugin_descriptor{sizeof(prof_plugin_descriptor),
                                PROF_ABI_MAJOR,
                                PROF_ABI_MINOR,
                                name,
                                version,
                                description,
                                kind,
                                scope,
                                options,
                                option_count,
                                nullptr,
                                nullptr,
                                vendor,
                                0,
                                nullptr};
}

/// The vtable of source class T, with static storage.
template <class T> inline constexpr prof_source_vtable source_vtable = SourceAdapter<T>::vtable();
/// The vtable of exporter class T, with static storage.
template <class T>
inline constexpr prof_exporter_vtable exporter_vtable = ExporterAdapter<T>::vtable();

/// A complete descriptor for source class T (see SourceAdapter) with its option table.
template <class T, uint32_t N>
constexpr prof_plugin_descriptor source_descriptor(const char *name, const char *version,
                                                   const char *description, prof_plugin_scope scope,
                                                   const prof_option_desc (&options)[N],
                                                   const char *vendor) {
  prof_plugin_descriptor d =
      make_descriptor(name, version, description, PROF_KIND_SOURCE, scope, options, N, vendor);
  d.source = &source_vtable<T>;
  return d;
}

/// The same, with a table built by join_options() (it needs static storage:
/// a constexpr at namespace scope).
template <class T, size_t N>
constexpr prof_plugin_descriptor source_descriptor(const char *name, const char *version,
                                                   const char *description, prof_plugin_scope scope,
                                                   const std::array<prof_option_desc, N> &options,
                                                   const char *vendor) {
  prof_plugin_descriptor d = make_descriptor(name, version, description, PROF_KIND_SOURCE, scope,
                                             options.data(), static_cast<uint32_t>(N), vendor);
  d.source = &source_vtable<T>;
  return d;
}

/// One option table from two: a plugin's own rows, then rows it shares with
/// other plugins of the same vendor.
template <size_t A, size_t B>
constexpr std::array<prof_option_desc, A + B> join_options(const prof_option_desc (&own)[A],
                                                           const prof_option_desc (&shared)[B]) {
  std::array<prof_option_desc, A + B> table{};
  for (size_t i = 0; i < A; ++i)
    table[i] = own[i];
  for (size_t i = 0; i < B; ++i)
    table[A + i] = shared[i];
  return table;
}

/// A complete descriptor for exporter class T (see ExporterAdapter) with its option table.
template <class T, uint32_t N>
constexpr prof_plugin_descriptor
exporter_descriptor(const char *name, const char *version, const char *description,
                    const prof_option_desc (&options)[N], const char *vendor) {
  prof_plugin_descriptor d = make_descriptor(name, version, description, PROF_KIND_EXPORTER,
                                             PROF_SCOPE_SYSTEM, options, N, vendor);
  d.exporter = &exporter_vtable<T>;
  return d;
}

/// An importer's view of the host: the emit functions (as a source has
/// them, through host()) and the capture's facts.
class ImportHost {
public:
  ImportHost(const prof_import_api *api, void *host)
      : api_(api), host_(host), emit_(api->emit, host) {}
  const Host &host() const { return emit_; }
  void set_facts(const prof_import_facts &facts) const { api_->set_facts(host_, &facts); }

private:
  const prof_import_api *api_;
  void *host_;
  Host emit_;
};

/// Builds a prof_importer_vtable from a class T with
///   static uint32_t probe(std::string_view path, std::span<const uint8_t> head);
///   static bool read(const ImportHost &host, const prof_import_request &request);
/// (read logs why before it returns false). Exceptions never cross the
/// boundary: one that escapes read is logged as the reason.
template <class T> struct ImporterAdapter {
  static uint32_t probe(const char *path, const uint8_t *head, size_t size) noexcept {
    try {
      return T::probe(path ? std::string_view(path) : std::string_view(),
                      std::span<const uint8_t>(head, head ? size : 0));
    } catch (...) {
      return 0;
    }
  }
  static prof_status read(const prof_import_api *api, void *host,
                          const prof_import_request *request) noexcept {
    try {
      return T::read(ImportHost(api, host), *request) ? PROF_OK : PROF_ERROR;
    } catch (const std::exception &e) {
      api->emit->log(host, PROF_LOG_ERROR, e.what());
    } catch (...) {
      api->emit->log(host, PROF_LOG_ERROR, "the importer failed");
    }
    return PROF_ERROR;
  }
  static constexpr prof_importer_vtable vtable() {
    return prof_importer_vtable{sizeof(prof_importer_vtable), &probe, &read};
  }
};

/// The vtable of importer class T, with static storage.
template <class T>
inline constexpr prof_importer_vtable importer_vtable = ImporterAdapter<T>::vtable();

/// A complete descriptor for importer class T (see ImporterAdapter).
template <class T>
constexpr prof_plugin_descriptor importer_descriptor(const char *name, const char *version,
                                                     const char *description, const char *vendor) {
  prof_plugin_descriptor d = make_descriptor(name, version, description, PROF_KIND_IMPORTER,
                                             PROF_SCOPE_SYSTEM, nullptr, 0, vendor);
  d.importer = &importer_vtable<T>;
  return d;
}

/// `descriptor` (an exporter's) that also reads its format with importer T.
template <class T>
constexpr prof_plugin_descriptor with_importer(prof_plugin_descriptor descriptor) {
  descriptor.importer = &importer_vtable<T>;
  return descriptor;
}

} // namespace prof

/// Defines the entry symbol returning `descriptor` (a prof_plugin_descriptor
/// with static storage).
#define PROF_PLUGIN_ENTRY(descriptor)                                                              \
  extern "C" PROF_PLUGIN_EXPORT const prof_plugin_descriptor *prof_plugin_entry(void) {            \
    return &(descriptor);                                                                          \
  }

#endif
