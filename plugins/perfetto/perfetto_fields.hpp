// Field numbers and enum values of Perfetto's trace protos, for both
// directions of the perfetto plugin: what the exporter writes and what the
// importer (read/) reads. Every number is copied from google/perfetto's
// public protos/perfetto/trace/ definitions (proto2, package
// perfetto.protos); the test schema tests/unit/perfetto/minimal_trace.proto
// repeats those the exporter writes. (r) marks what only the reader uses.
//
//  message (file)                                    field                         no.
//  Trace (trace.proto)                               packet                         1
//  TracePacket (trace_packet.proto)                  clock_snapshot                 6
//                                                    timestamp                      8
//                                                    trusted_packet_sequence_id    10
//                                                    track_event                   11
//                                                    interned_data                 12
//                                                    sequence_flags                13
//                                                    incremental_state_cleared     41 (r)
//                                                    previous_packet_dropped       42 (r)
//                                                    compressed_packets            50 (r)
//                                                    timestamp_clock_id            58
//                                                    trace_packet_defaults         59
//                                                    track_descriptor              60
//                                                    perf_sample                   66
//  TracePacket.SequenceFlags                         SEQ_INCREMENTAL_STATE_CLEARED  1
//                                                    SEQ_NEEDS_INCREMENTAL_STATE    2 (r)
//  TracePacketDefaults (trace_packet_defaults.proto) timestamp_clock_id 58,
//                                                    track_event_defaults 11
//  TrackEventDefaults (track_event.proto)            track_uuid 11,
//                                                    extra_counter_track_uuids 31 (r),
//                                                    extra_double_counter_track_uuids 45 (r)
//  ClockSnapshot (clock_snapshot.proto)              clocks 1, primary_trace_clock 2 (r)
//  ClockSnapshot.Clock                               clock_id 1, timestamp 2,
//                                                    is_incremental 3,
//                                                    unit_multiplier_ns 4
//  BuiltinClock (common/builtin_clock.proto)         BUILTIN_CLOCK_REALTIME 1 (r),
//                                                    BUILTIN_CLOCK_BOOTTIME 6
//  TrackDescriptor (track_descriptor.proto)          uuid 1, name 2, process 3,
//                                                    thread 4, parent_uuid 5, counter 8,
//                                                    static_name 10 (r)
//  ProcessDescriptor (process_descriptor.proto)      pid 1, cmdline 2, process_name 6
//  ThreadDescriptor (thread_descriptor.proto)        pid 1, tid 2, thread_name 5
//  CounterDescriptor (counter_descriptor.proto)      type 1 (r), unit 3, unit_multiplier 4 (r),
//                                                    is_incremental 5 (r), unit_name 6
//  CounterDescriptor.Unit                            UNIT_TIME_NS 1, UNIT_COUNT 2,
//                                                    UNIT_SIZE_BYTES 3
//  CounterDescriptor.BuiltinCounterType              COUNTER_THREAD_TIME_NS 1 (r),
//                                                    COUNTER_THREAD_INSTRUCTION_COUNT 2 (r)
//  TrackEvent (track_event.proto)                    timestamp_delta_us 1 (r),
//                                                    category_iids 3,
//                                                    debug_annotations 4,
//                                                    legacy_event 6 (r), type 9,
//                                                    name_iid 10, track_uuid 11,
//                                                    extra_counter_values 12 (r),
//                                                    timestamp_absolute_us 16 (r),
//                                                    categories 22 (r), name 23 (r),
//                                                    counter_value 30,
//                                                    extra_counter_track_uuids 31 (r),
//                                                    double_counter_value 44,
//                                                    extra_double_counter_track_uuids 45 (r),
//                                                    extra_double_counter_values 46 (r),
//                                                    flow_ids_old 36 (varint),
//                                                    terminating_flow_ids_old 42,
//                                                    flow_ids 47 (fixed64),
//                                                    terminating_flow_ids 48 (fixed64),
//                                                    correlation_id 52 (r)
//  TrackEvent.Type                                   TYPE_UNSPECIFIED 0 (r), SLICE_BEGIN 1,
//                                                    SLICE_END 2, INSTANT 3, COUNTER 4
//  EventCategory, EventName (track_event.proto)      iid 1, name 2
//  DebugAnnotation (debug_annotation.proto)          name_iid 1 (r), bool_value 2 (r),
//                                                    uint_value 3, int_value 4,
//                                                    double_value 5, string_value 6,
//                                                    pointer_value 7 (r),
//                                                    legacy_json_value 9 (r), name 10,
//                                                    string_value_iid 17 (r)
//  DebugAnnotationName (debug_annotation.proto)      iid 1, name 2 (r)
//  InternedData (interned_data/interned_data.proto)  event_categories 1, event_names 2,
//                                                    debug_annotation_names 3 (r),
//                                                    function_names 5, frames 6,
//                                                    callstacks 7, mapping_paths 17,
//                                                    mappings 19,
//                                                    debug_annotation_string_values 29 (r)
//  InternedString (profiling/profile_common.proto)   iid 1, str 2
//  Mapping (profiling/profile_common.proto)          iid 1, start 4, end 5,
//                                                    path_string_ids 7
//  Frame (profiling/profile_common.proto)            iid 1, function_name_id 2,
//                                                    mapping_id 3, rel_pc 4
//  Callstack (profiling/profile_common.proto)        iid 1, frame_ids 2 (root first)
//  PerfSample (profiling/profile_packet.proto)       pid 2, tid 3, callstack_iid 4
//
// prof's own conventions in the files it writes (namespace prof_iids) sit at
// the end: the reader recognizes prof's files by them.
#ifndef PROF_PLUGINS_PERFETTO_FIELDS_HPP
#define PROF_PLUGINS_PERFETTO_FIELDS_HPP

#include <cstdint>

namespace prof::perfetto::field {

namespace trace {
inline constexpr uint32_t kPacket = 1;
}

namespace packet {
inline constexpr uint32_t kClockSnapshot = 6;
inline constexpr uint32_t kTimestamp = 8;
inline constexpr uint32_t kTrustedPacketSequenceId = 10;
inline constexpr uint32_t kTrackEvent = 11;
inline constexpr uint32_t kInternedData = 12;
inline constexpr uint32_t kSequenceFlags = 13;
inline constexpr uint32_t kIncrementalStateCleared = 41;
inline constexpr uint32_t kPreviousPacketDropped = 42;
inline constexpr uint32_t kCompressedPackets = 50;
inline constexpr uint32_t kTimestampClockId = 58;
inline constexpr uint32_t kTracePacketDefaults = 59;
inline constexpr uint32_t kTrackDescriptor = 60;
inline constexpr uint32_t kPerfSample = 66;
inline constexpr uint32_t kSeqIncrementalStateCleared = 1;
inline constexpr uint32_t kSeqNeedsIncrementalState = 2;
} // namespace packet

namespace trace_packet_defaults {
inline constexpr uint32_t kTimestampClockId = 58;
inline constexpr uint32_t kTrackEventDefaults = 11;
} // namespace trace_packet_defaults

namespace track_event_defaults {
inline constexpr uint32_t kTrackUuid = 11;
inline constexpr uint32_t kExtraCounterTrackUuids = 31;
inline constexpr uint32_t kExtraDoubleCounterTrackUuids = 45;
} // namespace track_event_defaults

namespace clock_snapshot {
inline constexpr uint32_t kClocks = 1;
inline constexpr uint32_t kPrimaryTraceClock = 2;
} // namespace clock_snapshot

/// ClockSnapshot.Clock, and the clock ids the exporter uses.
namespace clock {
inline constexpr uint32_t kClockId = 1;
inline constexpr uint32_t kTimestamp = 2;
inline constexpr uint32_t kIsIncremental = 3;
inline constexpr uint32_t kUnitMultiplierNs = 4;
/// BUILTIN_CLOCK_REALTIME: the wall clock.
inline constexpr uint32_t kBuiltinRealtime = 1;
/// BUILTIN_CLOCK_BOOTTIME: the trace clock when a trace names no other.
inline constexpr uint32_t kBuiltinBoottime = 6;
/// First and last ids of sequence-scoped clocks (defined per packet sequence).
inline constexpr uint32_t kFirstSequenceClock = 64;
inline constexpr uint32_t kLastSequenceClock = 127;
} // namespace clock

namespace track_descriptor {
inline constexpr uint32_t kUuid = 1;
inline constexpr uint32_t kName = 2;
inline constexpr uint32_t kProcess = 3;
inline constexpr uint32_t kThread = 4;
inline constexpr uint32_t kParentUuid = 5;
inline constexpr uint32_t kCounter = 8;
inline constexpr uint32_t kStaticName = 10;
} // namespace track_descriptor

namespace process_descriptor {
inline constexpr uint32_t kPid = 1;
inline constexpr uint32_t kCmdline = 2;
inline constexpr uint32_t kProcessName = 6;
} // namespace process_descriptor

namespace thread_descriptor {
inline constexpr uint32_t kPid = 1;
inline constexpr uint32_t kTid = 2;
inline constexpr uint32_t kThreadName = 5;
} // namespace thread_descriptor

namespace counter_descriptor {
inline constexpr uint32_t kType = 1;
inline constexpr uint32_t kUnit = 3;
inline constexpr uint32_t kUnitMultiplier = 4;
inline constexpr uint32_t kIsIncremental = 5;
inline constexpr uint32_t kUnitName = 6;
inline constexpr uint32_t kUnitTimeNs = 1;
inline constexpr uint32_t kUnitCount = 2;
inline constexpr uint32_t kUnitSizeBytes = 3;
inline constexpr uint32_t kCounterThreadTimeNs = 1;
inline constexpr uint32_t kCounterThreadInstructionCount = 2;
} // namespace counter_descriptor

namespace track_event {
inline constexpr uint32_t kTimestampDeltaUs = 1;
inline constexpr uint32_t kCategoryIids = 3;
inline constexpr uint32_t kDebugAnnotations = 4;
inline constexpr uint32_t kLegacyEvent = 6;
inline constexpr uint32_t kType = 9;
inline constexpr uint32_t kNameIid = 10;
inline constexpr uint32_t kTrackUuid = 11;
inline constexpr uint32_t kExtraCounterValues = 12;
inline constexpr uint32_t kTimestampAbsoluteUs = 16;
inline constexpr uint32_t kCategories = 22;
inline constexpr uint32_t kName = 23;
inline constexpr uint32_t kCounterValue = 30;
inline constexpr uint32_t kExtraCounterTrackUuids = 31;
inline constexpr uint32_t kDoubleCounterValue = 44;
inline constexpr uint32_t kExtraDoubleCounterTrackUuids = 45;
inline constexpr uint32_t kExtraDoubleCounterValues = 46;
inline constexpr uint32_t kCorrelationId = 52;
inline constexpr uint32_t kFlowIdsOld = 36;
inline constexpr uint32_t kTerminatingFlowIdsOld = 42;
inline constexpr uint32_t kFlowIds = 47;
inline constexpr uint32_t kTerminatingFlowIds = 48;
inline constexpr uint32_t kTypeUnspecified = 0;
inline constexpr uint32_t kTypeSliceBegin = 1;
inline constexpr uint32_t kTypeSliceEnd = 2;
inline constexpr uint32_t kTypeInstant = 3;
inline constexpr uint32_t kTypeCounter = 4;
} // namespace track_event

/// DebugAnnotation (debug_annotation.proto): an event's typed argument.
namespace debug_annotation {
inline constexpr uint32_t kNameIid = 1;
inline constexpr uint32_t kBoolValue = 2;
inline constexpr uint32_t kUintValue = 3;
inline constexpr uint32_t kIntValue = 4;
inline constexpr uint32_t kDoubleValue = 5;
inline constexpr uint32_t kStringValue = 6;
inline constexpr uint32_t kPointerValue = 7;
inline constexpr uint32_t kLegacyJsonValue = 9;
inline constexpr uint32_t kName = 10;
inline constexpr uint32_t kStringValueIid = 17;
} // namespace debug_annotation

namespace interned_data {
inline constexpr uint32_t kEventCategories = 1;
inline constexpr uint32_t kEventNames = 2;
inline constexpr uint32_t kDebugAnnotationNames = 3;
inline constexpr uint32_t kFunctionNames = 5;
inline constexpr uint32_t kFrames = 6;
inline constexpr uint32_t kCallstacks = 7;
inline constexpr uint32_t kMappingPaths = 17;
inline constexpr uint32_t kMappings = 19;
inline constexpr uint32_t kDebugAnnotationStringValues = 29;
} // namespace interned_data

/// EventName, EventCategory, DebugAnnotationName and InternedString share
/// {iid = 1, name/str = 2}.
namespace interned_entry {
inline constexpr uint32_t kIid = 1;
inline constexpr uint32_t kName = 2;
} // namespace interned_entry

namespace mapping {
inline constexpr uint32_t kIid = 1;
inline constexpr uint32_t kStart = 4;
inline constexpr uint32_t kEnd = 5;
inline constexpr uint32_t kPathStringIds = 7;
} // namespace mapping

namespace frame {
inline constexpr uint32_t kIid = 1;
inline constexpr uint32_t kFunctionNameId = 2;
inline constexpr uint32_t kMappingId = 3;
inline constexpr uint32_t kRelPc = 4;
} // namespace frame

namespace callstack {
inline constexpr uint32_t kIid = 1;
inline constexpr uint32_t kFrameIds = 2;
} // namespace callstack

namespace perf_sample {
inline constexpr uint32_t kPid = 2;
inline constexpr uint32_t kTid = 3;
inline constexpr uint32_t kCallstackIid = 4;
} // namespace perf_sample

} // namespace prof::perfetto::field

/// prof's own conventions in the traces its exporter writes, which its
/// importer reads back: iids past every prof string id (uint32), so they
/// never meet an iid the exporter gives a name or category of its own.
namespace prof::perfetto::prof_iids {

/// EventName iid of a flow event that has no name, interned as kFlowName.
inline constexpr uint64_t kFlowName = uint64_t{1} << 32;
inline constexpr const char *kFlowNameText = "flow";
/// EventCategory iid of well-known category k (prof_category) is
/// kKindBase + k, interned as prof::category_name(k): an event's second
/// category, beside the vendor's own.
inline constexpr uint64_t kKindBase = uint64_t{1} << 32;

} // namespace prof::perfetto::prof_iids

#endif
