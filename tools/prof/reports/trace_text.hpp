// The text of a trace file as `prof import` reads it: the whole file, and
// for a gzip file (tensorboard_trace_handler's .json.gz, told by gzip's
// magic bytes, not by the name) its decompressed content.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace prof::tool {

/// A damaged or cut gzip stream. what() is "<expected> at offset N".
class TraceTextError : public std::runtime_error {
public:
  TraceTextError(const std::string &expected, std::size_t at)
      : std::runtime_error(expected + " at offset " + std::to_string(at)), offset(at) {}
  std::size_t offset;
};

/// Whether this prof reads gzip-compressed traces (built with zlib).
bool gzip_traces_supported();

/// The text of the trace at `path`. Throws TraceTextError for a damaged or
/// cut gzip stream (the offset counts compressed bytes) and for gzip without
/// zlib; std::system_error when the file cannot be read.
std::string read_trace_text(const std::string &path);

} // namespace prof::tool
