#include "core/report/report_writer.hpp"

#include "core/report/chunk.hpp"
#include "core/report/record_codec.hpp"

#include <algorithm>

namespace prof::report {
namespace {

// Record lists are split so that no payload grows without bound.
constexpr size_t kRecordsPerChunk = 4096;
constexpr size_t kStringBytesPerChunk = 1024 * 1024;

size_t clamp_events_per_chunk(size_t n) { return std::clamp<size_t>(n, 1, kMaxEventsPerChunk); }

template <typename Record, typename Encode>
void write_in_slices(std::span<const Record> records, Encode encode_slice) {
  for (size_t at = 0; at < records.size(); at += kRecordsPerChunk)
    encode_slice(records.subspan(at, std::min(kRecordsPerChunk, records.size() - at)));
}

} // namespace

ReportWriter::ReportWriter(WriterOptions options)
    : encoder_(clamp_events_per_chunk(options.events_per_chunk)),
      compressor_(options.compress_events ? std::make_unique<PayloadCompressor>() : nullptr) {}

ReportWriter::~ReportWriter() {
  try {
    if (is_open()) write_buffered_events();
  } catch (const ReportError &) {
    // The file closes below either way; a reader will see it cut.
  }
}

void ReportWriter::open(const std::string &path, const Header &header, bool force_overwrite) {
  if (is_open()) write_buffered_events(); // they belong to the report open so far
  file_.open(path, force_overwrite);
  encoder_.clear();
  events_written_ = 0;
  payload_.clear();
  encode_header(header, kFormatVersion, payload_);
  write_payload(static_cast<uint16_t>(ChunkType::header));
  // The header goes out at once so that even a capture killed early leaves a recognisable file.
  file_.flush();
}

void ReportWriter::add_strings(uint32_t first_id, std::span<const std::string_view> texts) {
  require_open();
  write_buffered_events();
  size_t begin = 0;
  while (begin < texts.size()) {
    size_t end = begin;
    size_t bytes = 0;
    while (end < texts.size() &&
           (end == begin || bytes + texts[end].size() <= kStringBytesPerChunk))
      bytes += texts[end++].size();
    payload_.clear();
    encode_strings(first_id + static_cast<uint32_t>(begin), texts.subspan(begin, end - begin),
                   payload_);
    write_payload(static_cast<uint16_t>(ChunkType::strings));
    begin = end;
  }
}

void ReportWriter::add_tracks(std::span<const TrackRecord> tracks) {
  require_open();
  write_buffered_events();
  write_in_slices(tracks, [this](std::span<const TrackRecord> slice) {
    payload_.clear();
    encode_tracks(slice, payload_);
    write_payload(static_cast<uint16_t>(ChunkType::tracks));
    if (std::none_of(slice.begin(), slice.end(), [](const TrackRecord &t) { return t.flags; }))
      return;
    payload_.clear();
    encode_track_flags(slice, payload_);
    write_payload(static_cast<uint16_t>(ChunkType::track_flags));
  });
}

void ReportWriter::add_stacks(std::span<const StackRecord> stacks) {
  require_open();
  write_buffered_events();
  write_in_slices(stacks, [this](std::span<const StackRecord> slice) {
    payload_.clear();
    encode_stacks(slice, payload_);
    write_payload(static_cast<uint16_t>(ChunkType::stacks));
  });
}

void ReportWriter::add_args(std::span<const ArgsRecord> sets) {
  require_open();
  write_buffered_events();
  write_in_slices(sets, [this](std::span<const ArgsRecord> slice) {
    payload_.clear();
    encode_args(slice, payload_);
    write_payload(static_cast<uint16_t>(ChunkType::args));
  });
}

void ReportWriter::add_clock_domains(std::span<const ClockDomainRecord> clocks) {
  require_open();
  write_buffered_events();
  write_in_slices(clocks, [this](std::span<const ClockDomainRecord> slice) {
    payload_.clear();
    encode_clock_domains(slice, payload_);
    write_payload(static_cast<uint16_t>(ChunkType::clocks));
  });
}

void ReportWriter::add_drops(std::span<const DropRecord> drops) {
  require_open();
  write_buffered_events();
  write_in_slices(drops, [this](std::span<const DropRecord> slice) {
    payload_.clear();
    encode_drops(slice, payload_);
    write_payload(static_cast<uint16_t>(ChunkType::drops));
  });
}

void ReportWriter::add_events(const prof_event *events, size_t count) {
  require_open();
  while (count > 0) {
    const size_t n = std::min(count, encoder_.room());
    encoder_.add(events, n);
    events += n;
    count -= n;
    events_written_ += n;
    if (encoder_.room() == 0) write_buffered_events();
  }
}

void ReportWriter::add_raw_chunk(uint16_t type, uint16_t flags, std::span<const uint8_t> payload) {
  require_open();
  write_buffered_events();
  const std::span<const uint8_t> pieces[] = {payload};
  file_.write_chunk(type, flags, pieces);
}

void ReportWriter::flush() {
  require_open();
  write_buffered_events();
  file_.flush();
}

void ReportWriter::finish(Footer footer) {
  require_open();
  write_buffered_events();
  footer.events_written = events_written_;
  payload_.clear();
  encode_footer(footer, payload_);
  write_payload(static_cast<uint16_t>(ChunkType::end));
  file_.close();
}

void ReportWriter::write_buffered_events() {
  if (encoder_.size() == 0) return;
  const auto pieces = encoder_.payload_pieces();
  if (compressor_ && compressor_->compress(pieces, compressed_)) {
    const std::span<const uint8_t> frame[] = {compressed_};
    file_.write_chunk(static_cast<uint16_t>(ChunkType::events), kChunkZstd, frame);
  } else {
    file_.write_chunk(static_cast<uint16_t>(ChunkType::events), 0, pieces);
  }
  encoder_.clear();
}

void ReportWriter::write_payload(uint16_t type) {
  const std::span<const uint8_t> pieces[] = {payload_};
  file_.write_chunk(type, 0, pieces);
}

void ReportWriter::require_open() const {
  if (!is_open()) throw ReportError("cannot write report: no report is open");
}

} // namespace prof::report
