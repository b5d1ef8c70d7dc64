/* prof event model: the records that sources emit and exporters consume.
 * Plain C so it can cross the plugin boundary. Stable within an ABI major. */
#ifndef PROF_EVENT_H
#define PROF_EVENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Index of an interned string. 0 is the empty string.
typedef uint32_t prof_string_id;
/// Index of a declared track. 0 means "no track" (the root).
typedef uint32_t prof_track_id;
/// Index of an interned call stack. 0 is the empty stack.
typedef uint32_t prof_stack_id;
/// Index of a registered clock domain. PROF_CLOCK_SESSION is CLOCK_MONOTONIC ns.
typedef uint32_t prof_clock_id;
/// Index of an argument set (ABI 1.5). 0 is "no arguments".
typedef uint32_t prof_args_id;

/// The session clock: nanoseconds of CLOCK_MONOTONIC.
#define PROF_CLOCK_SESSION 0u
/// The CPU's time-stamp counter, calibrated by the host against the session clock.
#define PROF_CLOCK_TSC 1u

/// What a track holds; mirrors Perfetto's track kinds.
typedef enum prof_track_kind {
  PROF_TRACK_PROCESS = 1, ///< a process; pid set
  PROF_TRACK_THREAD = 2,  ///< a thread; pid and tid set
  PROF_TRACK_DEVICE = 3,  ///< an accelerator device; index set
  PROF_TRACK_CLUSTER = 4, ///< a cluster inside a device
  PROF_TRACK_ENGINE = 5,  ///< an engine (SIP, DMA, ...) inside a cluster or device
  PROF_TRACK_COUNTER = 6, ///< a counter; events are PROF_EVENT_COUNTER, unit set
  PROF_TRACK_NETWORK = 7, ///< a network interface
  PROF_TRACK_COMM = 8,    ///< a communicator or channel of a collective library
  PROF_TRACK_CPU = 9,     ///< a CPU core; index set
  PROF_TRACK_CUSTOM = 10  ///< anything else with slices or instants
} prof_track_kind;

/// Description of a track, handed to prof_host_api::declare_track.
typedef struct prof_track_desc {
  uint32_t struct_size; ///< sizeof(prof_track_desc) as the plugin was built
  prof_track_kind kind; ///< what the track is
  prof_track_id parent; ///< enclosing track, 0 for a top-level one
  const char *name;     ///< display name, never NULL
  /// Process id of a process or thread track. On any other track (ABI 1.10):
  /// the process that owns the work on it, 0 for none. A stream or queue that
  /// a process-scope source declares for its own process's context is owned
  /// by that process (getpid() there; the host maps it to the pid prof sees),
  /// and so is every track under it. Splitting a capture by process puts an
  /// owned track in its owner's report only; statistics count its work as
  /// the owner's. A track of no owner, not PROF_TRACK_SHARED, is treated as
  /// shared (what every track of a plugin before ABI 1.10 is).
  int32_t pid;
  int32_t tid;         ///< thread id for thread tracks, else 0
  int32_t index;       ///< device/cluster/engine/cpu index, else -1
  const char *unit;    ///< unit of a counter track ("%", "bytes", ...), else NULL
  prof_clock_id clock; ///< clock domain of the timestamps emitted on it
  /* ABI 1.10: read only when struct_size covers it. */
  uint32_t flags; ///< PROF_TRACK_* bits, 0 for none
} prof_track_desc;

/// prof_track_desc::flags (ABI 1.10): the track is of the device itself and
/// every process shares it (a device, its clusters and engines as
/// containers, utilization, device-wide counters). pid is 0. Splitting a
/// capture by process copies it into every part, and `prof merge` of those
/// parts keeps it once. The host sets it on the tracks it copied so.
#define PROF_TRACK_SHARED 0x1u

/// Kind of an event record.
typedef enum prof_event_type {
  PROF_EVENT_SLICE = 1,   ///< [ts, ts+duration) on a track
  PROF_EVENT_INSTANT = 2, ///< a point in time on a track
  PROF_EVENT_COUNTER = 3, ///< value of a counter track at ts
  PROF_EVENT_SAMPLE = 4,  ///< a CPU sample: id is the call stack
  PROF_EVENT_FLOW = 5     ///< one end of a flow: id is the flow id, flags the phase
} prof_event_type;

/// Phase of a flow event (prof_event::flags).
typedef enum prof_flow_phase {
  PROF_FLOW_BEGIN = 0, ///< where the flow starts (the API call)
  PROF_FLOW_STEP = 1,  ///< an intermediate step
  PROF_FLOW_END = 2    ///< where it ends (the device work)
} prof_flow_phase;

/// prof_event::flags of a slice (ABI 1.9): it had begun and not ended when
/// prof asked (a flight recorder's dump); its end is that moment.
#define PROF_SLICE_UNFINISHED 1u

/// What a slice or instant is, in terms generic code may rely on (ABI 1.5).
/// A source tags its events with one; the event's `category` string keeps the
/// vendor's own name for display ("DMA VC Execution", "Operator"). Statistics,
/// summaries and exporters group and label by these, never by vendor names.
typedef enum prof_category {
  PROF_CATEGORY_OTHER = 0,          ///< none of the below (every event before ABI 1.5)
  PROF_CATEGORY_KERNEL = 1,         ///< device compute work
  PROF_CATEGORY_MEMCPY = 2,         ///< a device copy of unknown direction
  PROF_CATEGORY_MEMCPY_HTOD = 3,    ///< a copy from host to device memory
  PROF_CATEGORY_MEMCPY_DTOH = 4,    ///< a copy from device to host memory
  PROF_CATEGORY_MEMCPY_DTOD = 5,    ///< a copy within one device
  PROF_CATEGORY_MEMCPY_PTOP = 6,    ///< a copy between two devices (peer to peer)
  PROF_CATEGORY_MEMSET = 7,         ///< device memory set to a value
  PROF_CATEGORY_SYNC = 8,           ///< waiting for or signalling device work (streams, events)
  PROF_CATEGORY_RUNTIME_API = 9,    ///< a call of a device runtime's API
  PROF_CATEGORY_DRIVER_API = 10,    ///< a call of a device driver's API
  PROF_CATEGORY_ANNOTATION = 11,    ///< a range or mark the user put in (NVTX, prof ranges)
  PROF_CATEGORY_COMMUNICATION = 12, ///< a collective or point-to-point operation
  PROF_CATEGORY_MEMORY = 13,        ///< an allocation or free (see "Memory events" below)
  PROF_CATEGORY_OVERHEAD = 14,      ///< the profiler's own work
  PROF_CATEGORY_OPERATOR = 15       ///< a framework's operator on the host (ABI 1.8)
} prof_category;
/// One past the largest prof_category this header knows.
#define PROF_CATEGORY_COUNT 16u

/* Memory events. An allocation or free of device (or device-visible host)
 * memory is an instant of kind PROF_CATEGORY_MEMORY on a track under its
 * device's PROF_TRACK_DEVICE track, with these arguments:
 *   "operation"  string  "alloc" or "free"
 *   "address"    uint    the block's start address
 *   "bytes"      uint    the block's size (a free repeats its allocation's)
 *   "memory"     string  what memory: "device", "pinned", "managed", ... (optional)
 *   "correlation" uint   the session correlation id of the API call that made
 *                        it, the id of that call's slice (optional)
 * The device's "Memory used" counter track (unit "bytes", under the device
 * track) follows the sum of live device blocks; a "Memory total" counter
 * track (unit "bytes", under the device track), where a source knows it,
 * holds the device's memory size. Statistics read only these keys, never a
 * vendor's names. */
#define PROF_MEMORY_ARG_OPERATION "operation"
#define PROF_MEMORY_ARG_ADDRESS "address"
#define PROF_MEMORY_ARG_BYTES "bytes"
#define PROF_MEMORY_ARG_MEMORY "memory"
#define PROF_MEMORY_ARG_CORRELATION "correlation"
#define PROF_MEMORY_USED_TRACK "Memory used"
#define PROF_MEMORY_TOTAL_TRACK "Memory total"

/* Framework operators (ABI 1.8). A slice of kind PROF_CATEGORY_OPERATOR is
 * one call of a framework's operator (PyTorch's aten::mm, AddmmBackward0) on
 * the thread that ran it, with these optional arguments:
 *   "pass"          string  "forward" or "backward" (run by the autograd
 *                           engine for a backward node)
 *   "self"          uint    its time less that of the operators it called
 *   "input shapes"  string  "[[2, 8], [16, 8], []]": each input's sizes, []
 *                           for one that is no tensor
 *   "input types"   string  "[float, float, Scalar]"
 *   "allocated"     int     bytes the call and those it called allocated
 *                           less those they freed (the framework's memory)
 *   "self allocated" int    the same, less the operators it called
 *
 * Steps (ABI 1.8). A training step is a slice of kind
 * PROF_CATEGORY_ANNOTATION with an unsigned argument "step", its number
 * (1, 2, ...), the same number on every rank for the same step. */
#define PROF_OPERATOR_ARG_PASS "pass"
#define PROF_OPERATOR_ARG_SELF "self"
#define PROF_OPERATOR_ARG_INPUT_SHAPES "input shapes"
#define PROF_OPERATOR_ARG_INPUT_TYPES "input types"
#define PROF_OPERATOR_ARG_ALLOCATED "allocated"
#define PROF_OPERATOR_ARG_SELF_ALLOCATED "self allocated"
#define PROF_STEP_ARG "step"

/* Collectives. A communication slice with a string argument "communicator"
 * and an unsigned "sequence" (its order on the communicator, the same on
 * every rank) is one rank's part in a collective operation. When it waited
 * in a queue before it ran (a backend's worker thread), the unsigned
 * argument "queued" (ABI 1.8) says how long, in ns: the rank arrived at
 * `ts - queued`. */
#define PROF_COMMUNICATION_ARG_QUEUED "queued"

/// Type of an argument's value (ABI 1.5).
typedef enum prof_arg_type {
  PROF_ARG_INT = 1,    ///< value.i
  PROF_ARG_UINT = 2,   ///< value.u
  PROF_ARG_DOUBLE = 3, ///< value.d
  PROF_ARG_STRING = 4, ///< value.s, an interned string
  PROF_ARG_STACK = 5   ///< value.u, an interned call stack (prof_stack_id; ABI 1.7)
} prof_arg_type;
/// The largest prof_arg_type this header knows.
#define PROF_ARG_TYPE_LAST PROF_ARG_STACK

/// One typed argument of a slice or instant ("bytes" = 4096), 16 bytes.
typedef struct prof_arg {
  prof_string_id key; ///< interned name, never 0
  uint32_t type;      ///< prof_arg_type
  union {
    int64_t i;
    uint64_t u;
    double d;
    prof_string_id s;
  } value;
} prof_arg;

/// Most arguments one event may carry; an emit with more keeps the first ones.
#define PROF_MAX_ARGS 16u

/// One event, 48 bytes. Timestamps are in the track's clock domain when
/// emitted and in session nanoseconds when an exporter sees them.
typedef struct prof_event {
  uint8_t type;        ///< prof_event_type
  uint8_t flags;       ///< prof_flow_phase for flows, PROF_SLICE_UNFINISHED or 0 for slices, else 0
  uint16_t kind;       ///< prof_category of a slice or instant (ABI 1.5; was reserved, 0)
  prof_track_id track; ///< where the event lives
  prof_string_id name; ///< what it is called
  prof_string_id category; ///< its display category ("api", "Operator", ...), may be 0
  uint64_t ts;             ///< begin (slice) or time (others)
  uint64_t duration;       ///< slice length in the same unit as ts, else 0
  uint64_t id;             ///< correlation id (slice, counter), flow id (flow), stack id (sample)
  union {
    double value;  ///< counter value, else 0
    uint64_t args; ///< slices and instants: their prof_args_id, 0 for none (ABI 1.5)
  };
} prof_event;

#ifdef __cplusplus
}
#endif

#endif
