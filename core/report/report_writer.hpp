// ReportWriter: writes a .profrep, chunk by chunk, in the order of the calls.
#pragma once

#include "core/report/chunk_file_writer.hpp"
#include "core/report/event_columns.hpp"
#include "core/report/payload_compression.hpp"
#include "core/report/report_error.hpp"
#include "core/report/report_model.hpp"

#include <prof/event.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace prof::report {

struct WriterOptions {
  /// Events per EVENTS chunk (clamped to 1 .. kMaxEventsPerChunk).
  size_t events_per_chunk = 65536;
  /// zstd-compress EVENTS payloads (level 1) when that makes them smaller.
  bool compress_events = true;
};

inline constexpr size_t kMaxEventsPerChunk = size_t{1} << 22;

/// Writes one report. Events are buffered and encoded into an EVENTS chunk
/// every `events_per_chunk` events; any other record first flushes the
/// buffered events, so the file keeps the order of the calls (strings and
/// tracks written before the events that use them stay before them).
/// Every failure throws ReportError with a one-line message for the user.
/// Destroying an unfinished writer writes the buffered events and closes the
/// file without an END chunk, as a cut capture would.
class ReportWriter {
public:
  explicit ReportWriter(WriterOptions options = {});
  ~ReportWriter();
  ReportWriter(const ReportWriter &) = delete;
  ReportWriter &operator=(const ReportWriter &) = delete;

  /// Creates `path` and writes the HEADER chunk. An existing file is refused
  /// (and left untouched) unless `force_overwrite`.
  void open(const std::string &path, const Header &header, bool force_overwrite);
  bool is_open() const { return file_.is_open(); }
  const std::string &path() const { return file_.path(); }

  /// Strings with ids first_id, first_id + 1, ...
  void add_strings(uint32_t first_id, std::span<const std::string_view> texts);
  void add_tracks(std::span<const TrackRecord> tracks);
  void add_stacks(std::span<const StackRecord> stacks);
  void add_args(std::span<const ArgsRecord> sets);
  void add_clock_domains(std::span<const ClockDomainRecord> clocks);
  /// Running totals per ring: the reader keeps the last record of each ring.
  void add_drops(std::span<const DropRecord> drops);
  /// The hot path: copies nothing but the encoded bytes, allocates nothing.
  void add_events(const prof_event *events, size_t count);
  /// A chunk of any type, written as is (for tools and forward-compatibility tests).
  void add_raw_chunk(uint16_t type, uint16_t flags, std::span<const uint8_t> payload);

  /// Writes the buffered events and everything staged to the file.
  void flush();
  /// Writes the END chunk (with footer.events_written set to events_written())
  /// and closes the file.
  void finish(Footer footer);

  uint64_t bytes_written() const { return file_.bytes_written(); }
  /// Events passed to add_events, buffered ones included.
  uint64_t events_written() const { return events_written_; }

private:
  void write_buffered_events();
  void write_payload(uint16_t type);
  void require_open() const;

  ChunkFileWriter file_;
  EventColumnEncoder encoder_;
  std::unique_ptr<PayloadCompressor> compressor_; ///< null when not compressing
  std::vector<uint8_t> compressed_;
  std::vector<uint8_t> payload_;
  uint64_t events_written_ = 0;
};

} // namespace prof::report
