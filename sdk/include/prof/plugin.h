/* prof plugin ABI, version 1.11.
 *
 * A plugin is a shared object that exports one C symbol, prof_plugin_entry,
 * returning a pointer to a static prof_plugin_descriptor. The host reads the
 * descriptor without creating an instance (for --plugin-list, option help and
 * profile validation), then creates instances through the vtable.
 *
 * Compatibility: every struct starts with struct_size. A host accepts a plugin
 * with the same major and any minor; fields added by a later minor sit at the
 * end of a struct and are read only when struct_size covers them. */
#ifndef PROF_PLUGIN_H
#define PROF_PLUGIN_H

#include <prof/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Major ABI version: a host refuses plugins with another major.
#define PROF_ABI_MAJOR 1
/// Minor ABI version: 1.1 added prof_plugin_descriptor::vendor, 1.2
/// prof_host_api::emit_stack, 1.3 prof_host_api::emit_counter_for and the
/// clock anchor in prof_session_info, 1.4 the process list, plugins and rank
/// of prof_session_info and prof_plugin_descriptor::flags, 1.5 well-known
/// categories (prof_event::kind) and typed arguments (emit_slice_args,
/// emit_instant_args, prof_export_api::args), 1.6 drops by cause
/// (prof_host_api::count_dropped, prof_export_api::dropped_by_cause), 1.7
/// call stacks as arguments (PROF_ARG_STACK), 1.8 framework operators
/// (PROF_CATEGORY_OPERATOR) and steps (PROF_STEP_ARG), 1.9 unfinished slices
/// (prof_source_vtable::emit_unfinished, PROF_SLICE_UNFINISHED), 1.10 owners
/// of device tracks (prof_track_desc::pid, prof_export_api::process_track)
/// and shared tracks (prof_track_desc::flags, PROF_TRACK_SHARED), 1.11
/// importers (PROF_KIND_IMPORTER, prof_plugin_descriptor::importer).
#define PROF_ABI_MINOR 11

/// Name of the one symbol every plugin exports.
#define PROF_PLUGIN_ENTRY_SYMBOL "prof_plugin_entry"

#if defined(__GNUC__)
#define PROF_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define PROF_PLUGIN_EXPORT
#endif

/// Result of a plugin call: 0 is success, anything else a failure whose
/// reason the plugin reported through prof_host_api::log at PROF_LOG_ERROR.
typedef int prof_status;
#define PROF_OK 0
#define PROF_ERROR 1

typedef enum prof_plugin_kind {
  PROF_KIND_SOURCE = 1,  ///< produces events
  PROF_KIND_EXPORTER = 2, ///< consumes events (console, files)
  PROF_KIND_IMPORTER = 3  ///< reads another tool's trace files into reports (ABI 1.11)
} prof_plugin_kind;

typedef enum prof_plugin_scope {
  PROF_SCOPE_SYSTEM = 1, ///< runs inside the prof process
  PROF_SCOPE_PROCESS = 2 ///< runs inside the profiled application (agent)
} prof_plugin_scope;

typedef enum prof_option_type {
  PROF_OPTION_BOOL = 1,   ///< true/false, on/off, yes/no, 1/0
  PROF_OPTION_INT = 2,    ///< integer within [min, max]
  PROF_OPTION_DOUBLE = 3, ///< number within [min, max]
  PROF_OPTION_STRING = 4, ///< free text
  PROF_OPTION_ENUM = 5    ///< one of the comma-separated `choices`
} prof_option_type;

/// One configurable option of a plugin. The host validates values against it
/// (command line, --plugin "NAME k=v", YAML profiles) before the plugin sees them.
typedef struct prof_option_desc {
  const char *name;          ///< key, e.g. "frequency"
  prof_option_type type;     ///< value type
  const char *default_value; ///< textual default, NULL when the option has none
  double min;                ///< lower bound for INT/DOUBLE (ignored if min > max)
  double max;                ///< upper bound for INT/DOUBLE
  const char *choices;       ///< "a,b,c" for ENUM, else NULL
  const char *help;          ///< one line of help
} prof_option_desc;

typedef enum prof_log_level {
  PROF_LOG_DEBUG = 0,
  PROF_LOG_INFO = 1,
  PROF_LOG_WARN = 2,
  PROF_LOG_ERROR = 3
} prof_log_level;

/// Why events or records were lost. Every loss is counted under one cause,
/// and the report, the capture summary and `prof stats` state each.
typedef enum prof_drop_cause {
  PROF_DROP_RING_FULL = 0,          ///< an emit found its ring full (counted by the host)
  PROF_DROP_DEVICE_BUFFER_FULL = 1, ///< a device or driver buffer overflowed unread
  PROF_DROP_KERNEL_LOST = 2,        ///< the kernel lost records (perf's PERF_RECORD_LOST)
  PROF_DROP_INVALID_EVENT = 3,      ///< an event named an undeclared track, string or stack
  PROF_DROP_CATALOG_FULL = 4        ///< the application's shared catalog was full (host)
} prof_drop_cause;
/// Number of prof_drop_cause values.
#define PROF_DROP_CAUSE_COUNT 5

/// What the host tells a plugin about the capture.
typedef struct prof_session_info {
  uint32_t struct_size;
  const char *session_name; ///< session name
  int32_t target_pid;       ///< root process of the profiled tree, 0 if none
  const char *command;      ///< command line of the application, "" if none
  const char *hostname;     ///< host name
  /* ABI 1.3: check struct_size before reading. */
  uint64_t realtime_anchor_ns;  ///< CLOCK_REALTIME at monotonic_anchor_ns; 0 when unknown
  uint64_t monotonic_anchor_ns; ///< the session clock at that moment
  uint64_t start_ns;            ///< when the session started, on the session clock
  /* ABI 1.4: check struct_size before reading. */
  const int32_t *pids; ///< every profiled process, pid_count of them (NULL when none)
  uint32_t pid_count;
  /// The capture's plugins with their options, one per line:
  /// "name version key=value key=value"; NULL or "" when unknown.
  const char *plugins;
  const char *rank; ///< the launcher's rank (RANK, SLURM_PROCID, ...); NULL or "" when none
} prof_session_info;

/// Services the host offers a source plugin. Every function takes `host`,
/// the opaque context the host passed to create(). emit_* never block,
/// never allocate and never take a lock: when the calling thread's ring is
/// full the event is dropped and counted, and the report states it.
typedef struct prof_host_api {
  uint32_t struct_size;
  /// Interns a string (not NUL-terminated necessarily), returns its id.
  prof_string_id (*intern_string)(void *host, const char *text, size_t length);
  /// Declares a track and returns its id, 0 on invalid input.
  prof_track_id (*declare_track)(void *host, const prof_track_desc *desc);
  /// Interns a call stack: frames are function-name string ids, leaf first.
  prof_stack_id (*intern_stack)(void *host, const prof_string_id *frames, uint32_t count);
  /// Emits a slice [begin, begin+duration) on `track`.
  void (*emit_slice)(void *host, prof_track_id track, uint64_t begin, uint64_t duration,
                     prof_string_id name, prof_string_id category, uint64_t correlation_id);
  /// Emits an instant at `ts`.
  void (*emit_instant)(void *host, prof_track_id track, uint64_t ts, prof_string_id name,
                       prof_string_id category);
  /// Emits a counter value at `ts` on a counter track.
  void (*emit_counter)(void *host, prof_track_id track, uint64_t ts, double value);
  /// Emits a CPU sample of the thread track `track` at `ts`.
  void (*emit_sample)(void *host, prof_track_id track, uint64_t ts, prof_stack_id stack);
  /// Emits one end of flow `flow_id` (prof_flow_phase) at `ts` on `track`.
  void (*emit_flow)(void *host, prof_track_id track, uint64_t ts, uint64_t flow_id,
                    prof_flow_phase phase);
  /// Registers a clock domain ticking at `frequency_hz`; returns its id, 0 on error.
  prof_clock_id (*register_clock_domain)(void *host, const char *name, double frequency_hz);
  /// Adds a calibration pair: `domain_ticks` in `clock` happened at `session_ns`.
  void (*add_calibration)(void *host, prof_clock_id clock, uint64_t domain_ticks,
                          uint64_t session_ns);
  /// Now on the session clock (CLOCK_MONOTONIC nanoseconds).
  uint64_t (*now)(void *host);
  /// Logs one line; PROF_LOG_ERROR lines explain a failing call.
  void (*log)(void *host, prof_log_level level, const char *message);
  /// Value of an option as validated text (the default when not set), or NULL
  /// when the option is unknown or has neither value nor default.
  const char *(*get_option)(void *host, const char *name);
  /// Capture facts (target pid, command, host name).
  const prof_session_info *(*session_info)(void *host);
  /* ABI 1.2: check struct_size before calling. */
  /// Emits the call stack of something else on `track` at `ts` (the slice of
  /// a blocking call, say), not a CPU sample; `category` says what it
  /// belongs to (e.g. "osrt"). Exporters keep it out of CPU function views.
  void (*emit_stack)(void *host, prof_track_id track, uint64_t ts, prof_stack_id stack,
                     prof_string_id category);
  /* ABI 1.3: check struct_size before calling. */
  /// Emits a counter value measured over the work with correlation id
  /// `correlation_id` (a device operator, say), so exporters can tie the two.
  void (*emit_counter_for)(void *host, prof_track_id track, uint64_t ts, double value,
                           uint64_t correlation_id);
  /* ABI 1.5: check struct_size before calling. */
  /// Emits a slice as emit_slice does, tagged with its well-known category
  /// `kind` (prof_category) and carrying `arg_count` typed arguments (at most
  /// PROF_MAX_ARGS are kept; `args` may be NULL when arg_count is 0). The
  /// arguments are copied: `args` may be reused as soon as the call returns.
  void (*emit_slice_args)(void *host, prof_track_id track, uint64_t begin, uint64_t duration,
                          prof_string_id name, prof_string_id category, uint64_t correlation_id,
                          uint16_t kind, const prof_arg *args, uint32_t arg_count);
  /// Emits an instant as emit_instant does, with a category kind and arguments.
  void (*emit_instant_args)(void *host, prof_track_id track, uint64_t ts, prof_string_id name,
                            prof_string_id category, uint16_t kind, const prof_arg *args,
                            uint32_t arg_count);
  /* ABI 1.6: check struct_size before calling. */
  /// Counts `count` records the plugin lost before they became events, under
  /// `cause`: PROF_DROP_DEVICE_BUFFER_FULL or PROF_DROP_KERNEL_LOST (the host
  /// counts the other causes itself and ignores them here). Adds to a running
  /// total; never blocks.
  void (*count_dropped)(void *host, prof_drop_cause cause, uint64_t count);
} prof_host_api;

/// The instance functions of a source plugin.
typedef struct prof_source_vtable {
  uint32_t struct_size;
  /// Creates an instance; returns NULL on failure (after logging why).
  void *(*create)(const prof_host_api *api, void *host);
  void (*destroy)(void *instance);
  /// Prints the answer to a query ("activities", "events", ...) with `print`.
  /// Returns PROF_ERROR for a query the plugin does not know. May be NULL.
  prof_status (*query)(void *instance, const char *what, void (*print)(void *ctx, const char *line),
                       void *ctx);
  /// Reads and checks options (via get_option) before start.
  prof_status (*configure)(void *instance);
  prof_status (*start)(void *instance);
  prof_status (*stop)(void *instance);
  prof_status (*suspend)(void *instance);
  prof_status (*resume)(void *instance);
  /// Emits whatever the plugin still buffers; called after stop.
  prof_status (*flush)(void *instance);
  /// Emits, with the usual emit functions, each slice that has begun and not
  /// ended (a call some thread is inside) as a slice from its begin to `now`
  /// (session clock); the host marks them PROF_SLICE_UNFINISHED. Called when
  /// a flight recorder is dumped, on a thread of the host's while the
  /// application's threads run on: it must not wait for them. May be NULL
  /// (ABI 1.9).
  prof_status (*emit_unfinished)(void *instance, uint64_t now);
} prof_source_vtable;

/// What the host offers an exporter. Lookups are valid for every id that
/// appears in an event handed to consume() and for the life of the export.
typedef struct prof_export_api {
  uint32_t struct_size;
  /// Text of a string id ("" for an unknown id).
  const char *(*string)(void *host, prof_string_id id);
  /// Description of a track, NULL for an unknown id. name is resolved text.
  const prof_track_desc *(*track)(void *host, prof_track_id id);
  /// Frames (string ids, leaf first) of a stack; *count receives their number.
  const prof_string_id *(*stack)(void *host, prof_stack_id id, uint32_t *count);
  /// Capture facts of the report being exported.
  const prof_session_info *(*session_info)(void *host);
  /// Prints one line of console output, prefixed "==PID== " by the host,
  /// honouring --quiet and --log-file.
  void (*print)(void *host, const char *line);
  void (*log)(void *host, prof_log_level level, const char *message);
  const char *(*get_option)(void *host, const char *name);
  /// Events the host dropped (rings full) in the capture being exported.
  uint64_t (*dropped_events)(void *host);
  /* ABI 1.5: check struct_size before calling. */
  /// The arguments of argument set `id` (prof_event::args of a slice or
  /// instant); *count receives their number, 0 and NULL for id 0 or an
  /// unknown id.
  const prof_arg *(*args)(void *host, prof_args_id id, uint32_t *count);
  /* ABI 1.6: check struct_size before calling. */
  /// Events or records the capture lost under `cause` (dropped_events is
  /// PROF_DROP_RING_FULL's count); 0 for an unknown cause.
  uint64_t (*dropped_by_cause)(void *host, prof_drop_cause cause);
  /* ABI 1.10: check struct_size before calling. */
  /// The process track of process `pid`, as the owner of a device track
  /// names it (prof_track_desc::pid), 0 when the capture has none. Where a
  /// merged report holds several processes of that pid, the one of the
  /// input that `near` (the owned track) came from.
  prof_track_id (*process_track)(void *host, int32_t pid, prof_track_id near);
} prof_export_api;

/// The instance functions of an exporter plugin. Events arrive in batches,
/// each batch in time order within one producer but not across batches.
typedef struct prof_exporter_vtable {
  uint32_t struct_size;
  void *(*create)(const prof_export_api *api, void *host);
  void (*destroy)(void *instance);
  prof_status (*begin)(void *instance);
  prof_status (*consume)(void *instance, const prof_event *events, size_t count);
  prof_status (*end)(void *instance);
} prof_exporter_vtable;

/// What an importer tells the host about the capture a file holds
/// (prof_import_api::set_facts). Times are those the importer emits.
typedef struct prof_import_facts {
  uint32_t struct_size;
  const char *program; ///< the profiled program ("python3"), NULL when unknown
  /// The file's own format, as the report records it ("kineto", "legacy").
  const char *format;
  const char *rank; ///< the process's rank in its job, NULL or "" when none
  const int32_t *pids; ///< the processes the file holds, pid_count of them
  uint32_t pid_count;
  /// CLOCK_REALTIME at monotonic_anchor_ns; 0 when the file has no wall
  /// clock (its times count from a profiler's start).
  uint64_t realtime_anchor_ns;
  uint64_t monotonic_anchor_ns; ///< that moment, on the emitted times
  uint64_t start_ns;            ///< when the capture started, on the emitted times
  /// More facts recorded with the format, key and value in turn
  /// ("backend", "nccl"): 2 * detail_count strings.
  const char *const *details;
  uint32_t detail_count;
} prof_import_facts;

/// The file an importer reads, and what the user said of it.
typedef struct prof_import_request {
  uint32_t struct_size;
  const char *path;    ///< the file as the user named it
  const uint8_t *data; ///< its bytes, gzip compression already removed by the host
  size_t size;
  /// The rank the user gave (--rank), -1 when none: it overrides the file's.
  int64_t rank;
  /// The rank the file's name holds ("r3.json", "rank3"), -1 when none:
  /// used when the file itself does not say.
  int64_t name_rank;
} prof_import_request;

/// What the host offers an importer.
typedef struct prof_import_api {
  uint32_t struct_size;
  /// Interning, tracks and the emit functions, as a source uses them. Times
  /// are nanoseconds on the capture's own clock (any origin; facts anchor
  /// it); events may come in any order. now() answers 0.
  const prof_host_api *emit;
  /// Records the capture's facts; call once, before read returns.
  void (*set_facts)(void *host, const prof_import_facts *facts);
} prof_import_api;

/// The functions of an importer. Both may run on any thread, once per file;
/// neither opens a file.
typedef struct prof_importer_vtable {
  uint32_t struct_size;
  /// How surely this importer reads a file named `path` that begins with
  /// `head` (its first head_size bytes, at most 4096, gzip removed): 0 not
  /// at all, up to 100 certainly. prof takes the importer that answers
  /// highest; look at the bytes, not only the name.
  uint32_t (*probe)(const char *path, const uint8_t *head, size_t head_size);
  /// Reads the file and emits its events through `api`. On a file it cannot
  /// read, logs one line at PROF_LOG_ERROR saying what was expected where
  /// (a byte offset) and returns PROF_ERROR; the host then writes nothing.
  prof_status (*read)(const prof_import_api *api, void *host, const prof_import_request *request);
} prof_importer_vtable;

/// What prof_plugin_entry returns. Static storage; never freed.
typedef struct prof_plugin_descriptor {
  uint32_t struct_size;    ///< sizeof(prof_plugin_descriptor) as built
  uint16_t abi_major;      ///< PROF_ABI_MAJOR as built
  uint16_t abi_minor;      ///< PROF_ABI_MINOR as built
  const char *name;        ///< unique plugin name, e.g. "cpu-util"
  const char *version;     ///< plugin version, e.g. "1.0.0"
  const char *description; ///< one line
  prof_plugin_kind kind;
  prof_plugin_scope scope;
  const prof_option_desc *options; ///< option table, may be NULL when count is 0
  uint32_t option_count;
  const prof_source_vtable *source;     ///< set for PROF_KIND_SOURCE
  const prof_exporter_vtable *exporter; ///< set for PROF_KIND_EXPORTER
  /* ABI 1.1 */
  const char *vendor; ///< who ships the plugin, e.g. "prof project"
  /* ABI 1.4: check struct_size before reading. */
  uint32_t flags; ///< PROF_PLUGIN_* bits
  /* ABI 1.11: check struct_size before reading. */
  /// Set for PROF_KIND_IMPORTER; an exporter may set it too, to read the
  /// format it writes (one plugin for a format both ways).
  const prof_importer_vtable *importer;
} prof_plugin_descriptor;

/// The plugin replaces functions by symbol (it must be preloaded when the
/// application starts), so it cannot join a process by `prof attach`.
#define PROF_PLUGIN_INTERPOSES 0x1u
/// An exporter that tells the user in its own output how many events were
/// dropped (prof_export_api::dropped_events), so prof does not say it again.
#define PROF_PLUGIN_STATES_DROPS 0x2u

typedef const prof_plugin_descriptor *(*prof_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
