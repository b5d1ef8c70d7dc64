// The kineto plugin's importer: PyTorch profiler traces (Kineto's JSON
// object, or the legacy profiler's array of events), read, converted by
// the passes that make them what the torch source records, and emitted
// through the host as a report.
#pragma once

#include <prof/plugin.hpp>

#include <cstdint>
#include <span>
#include <string_view>

namespace prof::kineto {

struct KinetoImporter {
  /// How surely `head` starts a PyTorch trace: a JSON object that names
  /// Kineto's members, or an array of trace events; less when only the
  /// first byte and the name (.json, .json.gz) say so.
  static uint32_t probe(std::string_view path, std::span<const uint8_t> head);
  /// Reads the trace and emits it; a malformed one is refused with what was
  /// expected at which byte offset.
  static bool read(const ImportHost &host, const prof_import_request &request);
};

} // namespace prof::kineto
