/* prof GCU driver interface, version 1.3.
 *
 * What a device driver offers a profiler: the device tree (devices, clusters,
 * engines and what each engine can record), a selection of what to record,
 * activity records, counter samples and memory allocations delivered through
 * device buffers and a host ring, the device clock, and the runtime's API
 * calls.
 *
 * A driver library exports one C symbol, prof_gcu_driver_entry, returning a
 * static prof_gcu_driver. prof's `gcu` and `sip-pmc` plugins speak only to
 * this table; gcusim (plugins/gcu/sim) is the reference implementation, and a
 * vendor supports real hardware by shipping a library that exports the same
 * symbol.
 *
 * Every function is thread-safe and works before the application has made
 * any runtime call. Every struct starts with struct_size; later minors add
 * fields at the end only. */
#ifndef PROF_GCU_DRIVER_H
#define PROF_GCU_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Major version: a profiler refuses a driver with another major.
#define PROF_GCU_DRIVER_MAJOR 1
/// Minor version: 1.1 added what each activity is (prof_gcu_activity_desc)
/// and what each label names (prof_gcu_driver::label_category); 1.2 added
/// memory records (PROF_GCU_RECORD_MEMORY, prof_gcu_memory_record); 1.3
/// what traced API functions are (prof_gcu_api_desc).
#define PROF_GCU_DRIVER_MINOR 3
/// Name of the symbol a driver library exports.
#define PROF_GCU_DRIVER_ENTRY_SYMBOL "prof_gcu_driver_entry"

/// A kind of cluster each device holds `count` of ("Cluster", 4).
typedef struct prof_gcu_group_desc {
  const char *name;
  uint32_t count;
} prof_gcu_group_desc;

/// A kind of engine: `count` instances in each instance of group `group`, or
/// directly in the device when `group` is -1 ("General", "TS"). It can record
/// the listed activities (slices) and events (counters).
typedef struct prof_gcu_engine_desc {
  const char *name;                 ///< "SIP", "CDMA", ...
  int32_t group;                    ///< index into prof_gcu_topology::groups, -1 for the device
  uint32_t count;                   ///< instances per group instance (or per device)
  const char *const *activities;    ///< activity names, e.g. "SIP Busy"
  uint32_t activity_count;
  const char *const *events;        ///< counter event names, e.g. "sip_busy_with_wait"
  uint32_t event_count;
} prof_gcu_engine_desc;

/// A domain of traced runtime API functions ("RUNTIME").
typedef struct prof_gcu_api_domain {
  const char *name;
  const char *const *functions;
  uint32_t function_count;
} prof_gcu_api_domain;

/// A record of this activity is the work an API call launched: the one
/// record per call that the call's flow arrow ends at (the kernel's operator,
/// not each compute unit's share of it).
#define PROF_GCU_ACTIVITY_ENDS_FLOW 0x1u

/// What the records of one activity of one kind of engine are (driver 1.1).
/// Activities a driver does not describe are "other" and end no flow.
typedef struct prof_gcu_activity_desc {
  uint32_t engine;   ///< index into prof_gcu_topology::engines
  uint32_t activity; ///< index into that engine's activities
  uint16_t category; ///< prof_category (prof/event.h) of its records; a label's
                     ///< category, when it has one, refines it (a copy's direction)
  uint16_t flags;    ///< PROF_GCU_ACTIVITY_* bits
} prof_gcu_activity_desc;

/// What calls of one traced API function are (driver 1.3): a function that
/// waits for the device (a stream's, an event's or the device's
/// synchronization) is PROF_CATEGORY_SYNC. Functions a driver does not
/// describe are PROF_CATEGORY_RUNTIME_API.
typedef struct prof_gcu_api_desc {
  uint32_t domain;   ///< index into prof_gcu_topology::api_domains
  uint32_t function; ///< index into that domain's functions
  uint16_t category; ///< prof_category (prof/event.h) of its calls
  uint16_t reserved; ///< 0
} prof_gcu_api_desc;

/// The device tree. Every device has the same layout. Printed in this order:
/// groups with their engines (in table order), then the device's own engines.
typedef struct prof_gcu_topology {
  uint32_t struct_size;
  uint32_t device_count;
  const prof_gcu_group_desc *groups;
  uint32_t group_count;
  const prof_gcu_engine_desc *engines;
  uint32_t engine_count;
  const prof_gcu_api_domain *api_domains;
  uint32_t api_domain_count;
  /* driver 1.1: check struct_size before reading. */
  const prof_gcu_activity_desc *activity_descs; ///< what activities are, any order
  uint32_t activity_desc_count;
  /* driver 1.3: check struct_size before reading. */
  const prof_gcu_api_desc *api_descs; ///< what API functions are, any order
  uint32_t api_desc_count;
} prof_gcu_topology;

/// One activity or event of one engine instance of one device.
typedef struct prof_gcu_item {
  uint32_t device;
  int32_t group;          ///< index into groups, -1 for an engine of the device itself
  uint32_t group_index;   ///< which instance of the group; 0 when group is -1
  uint32_t engine;        ///< index into engines
  uint32_t engine_index;  ///< which instance of the engine
  uint32_t item;          ///< index into the engine's activities (or events)
} prof_gcu_item;

/// One traced API function.
typedef struct prof_gcu_api_item {
  uint32_t domain;   ///< index into api_domains
  uint32_t function; ///< index into the domain's functions
} prof_gcu_api_item;

typedef enum prof_gcu_record_kind {
  PROF_GCU_RECORD_ACTIVITY = 1, ///< a slice [start, end) on an engine instance
  PROF_GCU_RECORD_COUNTER = 2,  ///< an event's value over [start, end)
  PROF_GCU_RECORD_MEMORY = 3    ///< an allocation or free: a prof_gcu_memory_record (driver 1.2)
} prof_gcu_record_kind;

/// What the device writes into its buffers, 72 bytes.
typedef struct prof_gcu_record {
  uint16_t kind;            ///< prof_gcu_record_kind
  uint16_t device;
  int16_t group;            ///< as in prof_gcu_item
  uint16_t group_index;
  uint16_t engine;
  uint16_t engine_index;
  uint32_t item;            ///< activity index (activity) or event index (counter)
  uint32_t label;           ///< driver string (see label()) naming the work, e.g. the kernel; 0: none
  uint32_t stream;          ///< stream the work was queued on, 0 if none
  uint64_t start;           ///< device clock ticks
  uint64_t end;             ///< device clock ticks
  uint64_t correlation_id;  ///< the API call that queued the work, 0 if none
  uint64_t op_id;           ///< the operator (kernel launch) the record belongs to, 0 if none
  uint64_t bytes;           ///< bytes a copy moved, else 0
  uint64_t value;           ///< counter value over [start, end) (counters only)
} prof_gcu_record;

/// What a memory record did (driver 1.2).
typedef enum prof_gcu_memory_operation {
  PROF_GCU_MEMORY_ALLOC = 1, ///< the block was allocated
  PROF_GCU_MEMORY_FREE = 2   ///< the block was freed
} prof_gcu_memory_operation;

/// What memory a memory record's block is (driver 1.2).
typedef enum prof_gcu_memory_kind {
  PROF_GCU_MEMORY_DEVICE = 1, ///< device memory: counts toward the device's memory in use
  PROF_GCU_MEMORY_PINNED = 2  ///< host memory the device can reach (gcuMallocHost)
} prof_gcu_memory_kind;

/// A record of kind PROF_GCU_RECORD_MEMORY (driver 1.2), 72 bytes. It travels
/// in the same buffers and on_records arrays as prof_gcu_record, whose first
/// seven fields it shares: a reader copies a record of this kind out (memcpy)
/// into this struct. The driver writes one when an allocation or free is
/// made while an activity whose prof_gcu_activity_desc category is
/// PROF_CATEGORY_MEMORY is selected on the device; the item fields name that
/// activity. Pinned host memory is recorded on the device the allocating
/// thread had current.
typedef struct prof_gcu_memory_record {
  uint16_t kind; ///< PROF_GCU_RECORD_MEMORY
  uint16_t device;
  int16_t group; ///< the memory activity's engine, as in prof_gcu_record
  uint16_t group_index;
  uint16_t engine;
  uint16_t engine_index;
  uint32_t item;           ///< the memory activity's index
  uint16_t operation;      ///< prof_gcu_memory_operation
  uint16_t memory;         ///< prof_gcu_memory_kind
  uint32_t reserved;       ///< 0
  uint64_t timestamp;      ///< device clock ticks, as a prof_gcu_record's start
  uint64_t correlation_id; ///< the API call that allocated or freed it (its prof_gcu_api_record's)
  uint64_t address;        ///< the block's start address
  uint64_t bytes;          ///< the block's size; a free repeats its allocation's
  uint64_t reserved2[2];   ///< 0
} prof_gcu_memory_record;

/// One finished runtime API call, reported on the thread that made it.
typedef struct prof_gcu_api_record {
  uint32_t struct_size;
  uint32_t domain;          ///< index into api_domains
  uint32_t function;        ///< index into the domain's functions
  int32_t device;           ///< device the call addressed, -1 if none
  int32_t result;           ///< the call's return code
  uint64_t begin_ns;        ///< CLOCK_MONOTONIC
  uint64_t end_ns;          ///< CLOCK_MONOTONIC
  uint64_t correlation_id;  ///< what the device records it queued (or the memory records it
                            ///< made) carry; 0 if there are none
} prof_gcu_api_record;

/// Where the device writes records first.
typedef enum prof_gcu_buffer_location {
  PROF_GCU_BUFFER_DEVICE = 1, ///< device memory, moved to the host ring in the background
  PROF_GCU_BUFFER_HOST = 2    ///< straight into the host ring
} prof_gcu_buffer_location;

/// A capture: what to record, the buffers, and where records go.
typedef struct prof_gcu_capture_config {
  uint32_t struct_size;
  prof_gcu_buffer_location buffer;
  uint64_t device_buffer_bytes;  ///< per device; records that find it full are dropped
  uint64_t host_ring_bytes;      ///< per device
  uint64_t watermark_bytes;      ///< the host ring is delivered once it holds this much
  uint32_t flush_period_ms;      ///< also deliver whatever is buffered this often; 0: only at the watermark
  const prof_gcu_item *items;    ///< activities and events to record
  uint32_t item_count;
  const prof_gcu_api_item *apis; ///< API functions to report
  uint32_t api_count;
  /// Receives delivered records on a driver thread, in order per device.
  /// Skip records of a kind you do not know (a newer driver's).
  void (*on_records)(void *user, const prof_gcu_record *records, size_t count);
  /// Receives each selected API call on the calling thread as it returns.
  void (*on_api)(void *user, const prof_gcu_api_record *record);
  void *user;
  int collecting;                ///< 0: produce nothing until set_collecting(handle, 1)
} prof_gcu_capture_config;

/// Record counts of one device in one capture.
typedef struct prof_gcu_buffer_stats {
  uint32_t struct_size;
  uint64_t produced;   ///< records the device wrote or tried to write
  uint64_t delivered;  ///< records handed to on_records
  uint64_t dropped;    ///< records lost because a buffer was full
} prof_gcu_buffer_stats;

/// The driver's function table.
typedef struct prof_gcu_driver {
  uint32_t struct_size;
  uint16_t major;           ///< PROF_GCU_DRIVER_MAJOR as built
  uint16_t minor;           ///< PROF_GCU_DRIVER_MINOR as built
  const char *name;         ///< e.g. "gcusim"
  const char *version;
  /// The device tree; static storage.
  const prof_gcu_topology *(*topology)(void);
  /// Device clock ticks per second.
  double (*clock_frequency)(uint32_t device);
  /// Reads the device clock and CLOCK_MONOTONIC at the same moment. 0 on success.
  int (*clock_pair)(uint32_t device, uint64_t *host_ns, uint64_t *device_ticks);
  /// Text of a record label, "" for an unknown id. Valid for the process's life.
  const char *(*label)(uint32_t id);
  /// Starts a capture. 0 on success with *handle set; else writes a one-line
  /// reason into error. Several captures may run at once, each with its own
  /// selection and buffers.
  int (*subscribe)(const prof_gcu_capture_config *config, uint32_t *handle, char *error,
                   size_t error_size);
  /// Turns record production on or off (API calls are reported regardless).
  void (*set_collecting)(uint32_t handle, int on);
  /// Delivers everything buffered now; returns when on_records has seen it.
  void (*flush)(uint32_t handle);
  /// Flushes, then ends the capture: no callback runs after it returns.
  void (*unsubscribe)(uint32_t handle);
  /// Record counts of `device` in the capture. 0 on success.
  int (*stats)(uint32_t handle, uint32_t device, prof_gcu_buffer_stats *out);
  /// Cumulative busy ticks of the compute units (SIPs) of one group instance,
  /// or of the whole device when group is -1, and how many units that is.
  int (*busy_ticks)(uint32_t device, int32_t group, uint32_t group_index, uint64_t *busy,
                    uint32_t *units);
  /* driver 1.1: check struct_size before calling. */
  /// The prof_category the work a label names belongs to ("Memcpy HtoD":
  /// PROF_CATEGORY_MEMCPY_HTOD), 0 when the label says nothing about it (a
  /// kernel's name). May be NULL.
  uint16_t (*label_category)(uint32_t id);
} prof_gcu_driver;

typedef const prof_gcu_driver *(*prof_gcu_driver_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
