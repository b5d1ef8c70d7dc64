// The perfetto plugin's importer: Perfetto's protobuf traces (what
// Perfetto's SDK, traced, converters to Perfetto and prof's own exporter
// write), read into tracks, slices, instants, counters, flows and CPU
// samples (read_trace, then emit_trace).
#ifndef PROF_PLUGINS_PERFETTO_READ_PERFETTO_IMPORTER_HPP
#define PROF_PLUGINS_PERFETTO_READ_PERFETTO_IMPORTER_HPP

#include <prof/plugin.hpp>

#include <cstdint>
#include <span>
#include <string_view>

namespace prof::perfetto {

struct PerfettoImporter {
  /// How surely `head` starts a Perfetto trace: Trace.packet fields (byte
  /// 0x0a, a length) whose TracePackets begin with a TracePacket field; 95
  /// when three packets (or the whole file) check out in the head, less for
  /// fewer; 10 for a file named .perfetto-trace, .pftrace or .perfetto that
  /// opens like one and breaks later (a damaged trace, refused with where);
  /// 0 for anything else (text, zeros, an empty file).
  static uint32_t probe(std::string_view path, std::span<const uint8_t> head);
  /// Reads the trace and emits it; a malformed one is refused with what was
  /// expected at which byte offset.
  static bool read(const ImportHost &host, const prof_import_request &request);
};

} // namespace prof::perfetto

#endif
