#include "read/kineto_importer.hpp"

#include "read/trace_emitter.hpp"
#include "read/trace_passes.hpp"
#include "read/trace_read_error.hpp"
#include "read/trace_reader.hpp"

#include <prof/kineto_format.hpp>

namespace prof::kineto {
namespace {

/// The first byte that is not white space (after a UTF-8 byte order mark).
size_t first_token(std::string_view text) {
  size_t at = text.starts_with("\xef\xbb\xbf") ? 3 : 0;
  while (at < text.size() &&
         (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r'))
    ++at;
  return at;
}

bool quoted(std::string_view text, std::string_view word) {
  return text.find("\"" + std::string(word) + "\"") != std::string_view::npos;
}

} // namespace

uint32_t KinetoImporter::probe(std::string_view path, std::span<const uint8_t> head) {
  const std::string_view text(reinterpret_cast<const char *>(head.data()), head.size());
  const size_t at = first_token(text);
  if (at >= text.size()) return 0;
  const bool json_name = path.ends_with(".json") || path.ends_with(".json.gz");
  if (text[at] == '{') {
    if (quoted(text, kineto_format::kTraceEvents) ||
        quoted(text, kineto_format::kDistributedInfo) ||
        quoted(text, kineto_format::kDeviceProperties) || quoted(text, "schemaVersion"))
      return 90;
    return json_name ? 30 : 10;
  }
  if (text[at] == '[') {
    // The legacy profiler's array of events: objects with a phase.
    const size_t next = first_token(text.substr(at + 1)) + at + 1;
    if (next < text.size() && (text[next] == '{' || text[next] == ']') && quoted(text, "ph"))
      return 70;
    return json_name ? 20 : 0;
  }
  return 0;
}

bool KinetoImporter::read(const ImportHost &host, const prof_import_request &request) {
  const std::string_view text(reinterpret_cast<const char *>(request.data), request.size);
  ImportedTrace trace;
  try {
    read_pytorch_trace(text, trace);
  } catch (const TraceReadError &e) {
    host.host().error(e.what());
    return false;
  }
  // The rank: the user's, else the trace's, else its file name's.
  if (request.rank >= 0)
    trace.distributed.rank = request.rank;
  else if (!trace.distributed.rank && trace.labelled_rank)
    trace.distributed.rank = trace.labelled_rank;
  else if (!trace.distributed.rank && request.name_rank >= 0)
    trace.distributed.rank = request.name_rank;
  run_trace_passes(trace);
  emit_trace(trace, host);
  return true;
}

} // namespace prof::kineto
