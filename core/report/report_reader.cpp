#include "core/report/report_reader.hpp"

#include "core/report/chunk.hpp"
#include "core/report/chunk_scanner.hpp"
#include "core/report/event_columns.hpp"
#include "core/report/payload_compression.hpp"
#include "core/report/record_codec.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace prof::report {

namespace {
// Decompressed payloads, one buffer per thread (decode_events runs on many).
std::vector<uint8_t> &thread_scratch() {
  thread_local std::vector<uint8_t> buffer;
  return buffer;
}
} // namespace
namespace {

constexpr uint8_t kReportMagic[4] = {'P', 'R', 'O', 'F'};
// Read bytes are released from memory this many at a time, so that reading
// a report takes memory for its records, not for its events.
constexpr uint64_t kReleaseBytes = 4 << 20;

} // namespace

bool ReportReader::open(const std::string &path, ReadOptions options) {
  reset();
  path_ = path;
  options_ = options;
  if (const int error = file_.open(path); error != 0) {
    fail(ReportStatus::cannot_open,
         "cannot open report " + quoted_path() + ": " + std::strerror(error));
    return false;
  }
  const auto bytes = file_.bytes();
  file_size_ = bytes.size();
  if (bytes.size() < sizeof kReportMagic ||
      std::memcmp(bytes.data(), kReportMagic, sizeof kReportMagic) != 0) {
    fail(ReportStatus::not_a_report, quoted_path() + " is not a prof report (bad magic)");
    return false;
  }
  status_ = ReportStatus::complete; // until read_chunks finds otherwise
  read_chunks();
  args_.seal();
  if (is_error()) return false;
  if (!has_header_) {
    fail(ReportStatus::no_header, "report " + quoted_path() + " has no readable header");
    return false;
  }
  status_ = corrupted()  ? ReportStatus::corrupted
            : truncated_ ? ReportStatus::truncated
                         : ReportStatus::complete;
  return true;
}

void ReportReader::reset() {
  file_.close();
  status_ = ReportStatus::cannot_open;
  truncated_ = stopped_ = has_header_ = false;
  problems_.clear();
  corrupted_offsets_.clear();
  file_size_ = last_whole_chunk_end_ = skipped_chunks_ = event_count_ = 0;
  header_ = Header{};
  strings_.assign(1, std::string());
  tracks_.clear();
  stacks_.clear();
  args_.clear();
  clocks_.clear();
  drops_.clear();
  footer_.reset();
  event_chunks_.clear();
}

void ReportReader::read_chunks() {
  ChunkScanner scanner(file_.bytes());
  size_t damaged_seen = 0;
  const auto report_damage = [&] {
    for (; damaged_seen < scanner.damaged().size(); ++damaged_seen) {
      const auto &d = scanner.damaged()[damaged_seen];
      corrupted_offsets_.push_back(d.offset);
      std::string line = "report " + quoted_path() + ": chunk at offset " +
                         std::to_string(d.offset) + " is corrupted (" + std::string(d.reason) +
                         "); ";
      line += d.resumed_at
                  ? "resumed at the next whole chunk at offset " + std::to_string(*d.resumed_at)
                  : std::string("no whole chunk follows it");
      problems_.push_back(std::move(line));
    }
  };
  const auto report_malformed = [&](uint64_t offset, const std::string &what) {
    corrupted_offsets_.push_back(offset);
    problems_.push_back("report " + quoted_path() + ": chunk at offset " + std::to_string(offset) +
                        " is corrupted (" + what + ")");
  };
  uint64_t released = 0; // the bytes before this have been read and let go
  while (auto chunk = scanner.next()) {
    report_damage();
    if (chunk->end() - released >= kReleaseBytes) {
      file_.release(released, chunk->offset - released);
      released = chunk->offset;
    }
    const bool known_type = chunk_type_name(chunk->type) != "unknown";
    const bool flags_known =
        chunk->flags == 0 ||
        (chunk->type == static_cast<uint16_t>(ChunkType::events) && chunk->flags == kChunkZstd);
    if (known_type && !flags_known) {
      // Only EVENTS chunks may be compressed; any other flag would change how
      // the payload reads.
      char flags[8];
      std::snprintf(flags, sizeof flags, "0x%04x", unsigned{chunk->flags});
      report_malformed(chunk->offset, std::string("unknown flags ") + flags);
      continue;
    }
    if (!apply_chunk(chunk->type, chunk->flags, chunk->payload, chunk->offset))
      report_malformed(chunk->offset,
                       "malformed " + std::string(chunk_type_name(chunk->type)) + " payload");
    if (stopped_) return;
  }
  report_damage();
  file_.release(released, file_size_ - released);
  last_whole_chunk_end_ = scanner.last_whole_chunk_end();
  // A file that ends right after a whole chunk but lacks END was cut too.
  const bool ends_on_whole_chunk = last_whole_chunk_end_ == file_size_ && !footer_;
  if (scanner.cut() || ends_on_whole_chunk) {
    truncated_ = true;
    problems_.push_back("report " + quoted_path() + " is cut at byte " +
                        std::to_string(file_size_) +
                        ": read up to the last whole chunk, which ends at byte " +
                        std::to_string(last_whole_chunk_end_));
  }
}

bool ReportReader::apply_chunk(uint16_t type, uint16_t flags, std::span<const uint8_t> payload,
                               uint64_t offset) {
  const uint64_t payload_offset = offset + kChunkHeaderSize;
  switch (static_cast<ChunkType>(type)) {
  case ChunkType::header:
    return apply_header(payload);
  case ChunkType::strings:
    return apply_strings(payload);
  case ChunkType::events:
    return apply_events(payload, flags, payload_offset);
  case ChunkType::tracks: {
    std::vector<TrackRecord> records;
    if (!decode_tracks(payload, records)) return false;
    for (auto &r : records)
      tracks_[r.id] = std::move(r);
    return true;
  }
  case ChunkType::track_flags: {
    std::vector<std::pair<uint32_t, uint32_t>> records;
    if (!decode_track_flags(payload, records)) return false;
    for (const auto &[id, flags] : records)
      if (auto track = tracks_.find(id); track != tracks_.end()) track->second.flags = flags;
    return true;
  }
  case ChunkType::stacks: {
    std::vector<StackRecord> records;
    if (!decode_stacks(payload, records)) return false;
    for (auto &r : records)
      stacks_[r.id] = std::move(r);
    return true;
  }
  case ChunkType::args: {
    std::vector<ArgsRecord> records;
    if (!decode_args(payload, records)) return false;
    for (auto &r : records)
      if (r.id != 0) args_.add(r.id, r.args);
    return true;
  }
  case ChunkType::clocks: {
    std::vector<ClockDomainRecord> records;
    if (!decode_clock_domains(payload, records)) return false;
    for (auto &r : records) {
      auto &known = clocks_[r.id];
      known.id = r.id;
      known.name = std::move(r.name);
      known.frequency_hz = r.frequency_hz;
      known.calibration.insert(known.calibration.end(), r.calibration.begin(), r.calibration.end());
      std::sort(known.calibration.begin(), known.calibration.end());
      known.calibration.erase(std::unique(known.calibration.begin(), known.calibration.end()),
                              known.calibration.end());
    }
    return true;
  }
  case ChunkType::drops: {
    std::vector<DropRecord> records;
    if (!decode_drops(payload, records)) return false;
    for (const auto &r : records)
      drops_[r.ring] = r;
    return true;
  }
  case ChunkType::end: {
    Footer footer;
    if (!decode_footer(payload, footer)) return false;
    footer_ = footer;
    return true;
  }
  }
  ++skipped_chunks_; // a later format's chunk: skipping it is the point of the framing
  return true;
}

bool ReportReader::apply_header(std::span<const uint8_t> payload) {
  if (has_header_) return true; // only the first one counts
  uint32_t version = 0;
  if (!peek_format_version(payload, version)) return false;
  if (version == 0 || version > kFormatVersion) {
    fail(ReportStatus::unsupported_version,
         "report " + quoted_path() + " has format version " + std::to_string(version) +
             ", this prof reads up to " + std::to_string(kFormatVersion));
    stopped_ = true;
    return true;
  }
  Header header;
  if (!decode_header(payload, header)) return false;
  header_ = std::move(header);
  has_header_ = true;
  return true;
}

bool ReportReader::apply_strings(std::span<const uint8_t> payload) {
  uint32_t first_id = 0;
  std::vector<std::string> texts;
  if (!decode_strings(payload, first_id, texts)) return false;
  // Every id a writer hands out costs the file at least one byte, so a
  // larger id can only come from a damaged payload (and must not make us
  // allocate for it).
  const uint64_t end_id = uint64_t{first_id} + texts.size();
  if (end_id > file_size_ + 1) return false;
  if (strings_.size() < end_id) strings_.resize(static_cast<size_t>(end_id));
  for (size_t i = 0; i < texts.size(); ++i)
    if (first_id + i != 0) strings_[first_id + i] = std::move(texts[i]); // id 0 stays ""
  return true;
}

bool ReportReader::apply_events(std::span<const uint8_t> payload, uint16_t flags,
                                uint64_t payload_offset) {
  uint64_t events = 0;
  std::span<const uint8_t> columns = payload;
  std::vector<uint8_t> &plain = thread_scratch();
  if (flags == kChunkZstd && options_.check_events) {
    if (!decompress_payload(payload, plain)) return false;
    columns = plain;
  }
  if (options_.check_events) {
    if (!decode_event_columns(columns, scratch_)) return false;
    events = scratch_.size();
  } else if (flags == kChunkZstd) {
    // The count leads the payload: decompress only its first bytes.
    uint8_t prefix[10] = {};
    if (!peek_payload_prefix(payload, prefix, sizeof prefix) ||
        !peek_event_count(prefix, events) || events > kMaxPayloadSize)
      return false;
  } else if (!peek_event_count(payload, events) || events > payload.size()) {
    return false; // every event takes at least its type byte
  }
  event_chunks_.push_back({payload_offset, static_cast<uint32_t>(payload.size()),
                           static_cast<uint32_t>(events), flags});
  event_count_ += events;
  return true;
}

void ReportReader::fail(ReportStatus status, std::string message) {
  status_ = status;
  problems_.push_back(std::move(message));
}

const TrackRecord *ReportReader::track(uint32_t id) const {
  const auto it = tracks_.find(id);
  return it == tracks_.end() ? nullptr : &it->second;
}

const StackRecord *ReportReader::stack(uint32_t id) const {
  const auto it = stacks_.find(id);
  return it == stacks_.end() ? nullptr : &it->second;
}

uint64_t ReportReader::total_dropped() const {
  uint64_t total = 0;
  for (const auto &[ring, record] : drops_)
    if (!is_cause_ring(ring)) total += record.dropped;
  return total;
}

uint64_t ReportReader::dropped(prof_drop_cause cause) const {
  if (cause == PROF_DROP_RING_FULL) return total_dropped();
  if (!is_cause_ring(cause_ring(cause))) return 0;
  const auto it = drops_.find(cause_ring(cause));
  return it == drops_.end() ? 0 : it->second.dropped;
}

std::vector<prof_event> ReportReader::read_all_events() const {
  std::vector<prof_event> all;
  all.reserve(static_cast<size_t>(event_count_));
  for_each_event_batch([&](const prof_event *events, size_t count) {
    all.insert(all.end(), events, events + count);
  });
  return all;
}

void ReportReader::for_each_event_batch(
    const std::function<void(const prof_event *, size_t)> &visit) const {
  std::vector<prof_event> batch;
  for (const auto &chunk : event_chunks_) {
    // Validated at open(), so decoding cannot fail here.
    if (!decode_events(chunk, batch)) continue;
    if (!batch.empty()) visit(batch.data(), batch.size());
  }
}

bool ReportReader::decode_events(const EventChunk &chunk, std::vector<prof_event> &out) const {
  const auto bytes = file_.bytes();
  if (chunk.payload_offset > bytes.size() ||
      chunk.payload_size > bytes.size() - chunk.payload_offset)
    return false;
  std::span<const uint8_t> payload = bytes.subspan(chunk.payload_offset, chunk.payload_size);
  std::vector<uint8_t> &plain = thread_scratch();
  bool ok = true;
  if (chunk.flags == kChunkZstd) {
    ok = decompress_payload(payload, plain);
    payload = plain;
  }
  ok = ok && decode_event_columns(payload, out);
  if (chunk.payload_size >= kReleaseBytes / 16)
    file_.release(chunk.payload_offset, chunk.payload_size);
  return ok;
}

} // namespace prof::report
