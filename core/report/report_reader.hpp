// ReportReader: reads a .profrep back, tolerating cut and damaged files.
#pragma once

#include "core/report/arg_sets.hpp"
#include "core/report/mapped_file.hpp"
#include "core/report/report_model.hpp"

#include <prof/event.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::report {

/// How a report read. The first three leave a usable report (with warnings
/// in problems() for the second and third); the others are errors: there is
/// nothing to show and the caller exits with status 2.
enum class ReportStatus {
  complete,            ///< every chunk whole and valid, END present
  truncated,           ///< cut: read up to the last whole chunk
  corrupted,           ///< damaged chunks were skipped (the file may also be cut)
  cannot_open,         ///< the file could not be opened or read
  not_a_report,        ///< bad magic
  unsupported_version, ///< written by a newer prof
  no_header,           ///< no readable HEADER chunk
};

/// How ReportReader::open() reads a report.
struct ReadOptions {
  /// Decode every EVENTS payload at open() to check it. Off, a payload whose
  /// checksum holds is only counted, and a malformed one shows when
  /// decode_events() fails on it (for_each_event_batch() skips it): for
  /// callers that decode every chunk anyway and say which failed.
  bool check_events = true;
};

/// Reads a whole report: records at open(), events on demand. Never throws
/// for what a file contains and never reads outside it; every problem is a
/// line in problems(), written for the user.
///
/// Merging rules for records written several times: strings, tracks and
/// stacks with an id already seen replace it; a clock domain seen again
/// takes the new name and frequency and adds its calibration pairs; drops
/// keep the last record of each ring (writers write running totals).
class ReportReader {
public:
  /// Reads `path`. Returns false when the status is an error.
  bool open(const std::string &path, ReadOptions options = {});

  ReportStatus status() const { return status_; }
  bool is_error() const { return status_ >= ReportStatus::cannot_open; }
  bool complete() const { return status_ == ReportStatus::complete; }
  bool truncated() const { return truncated_; }
  bool corrupted() const { return !corrupted_offsets_.empty(); }
  /// One line per problem, in file order; for an error the last one says why.
  const std::vector<std::string> &problems() const { return problems_; }
  /// Offsets of every damaged or malformed chunk.
  const std::vector<uint64_t> &corrupted_offsets() const { return corrupted_offsets_; }
  /// Where a truncated file stops, and where its last whole chunk ends.
  uint64_t file_size() const { return file_size_; }
  uint64_t last_whole_chunk_end() const { return last_whole_chunk_end_; }
  /// Chunks of types this reader does not know, skipped.
  uint64_t skipped_chunks() const { return skipped_chunks_; }

  const Header &header() const { return header_; }
  /// Indexed by id; id 0 is "" and ids never written are "".
  const std::vector<std::string> &strings() const { return strings_; }
  /// Text of a string id, "" for any unknown id.
  std::string_view string(uint32_t id) const {
    return id < strings_.size() ? std::string_view(strings_[id]) : "";
  }
  const std::map<uint32_t, TrackRecord> &tracks() const { return tracks_; }
  const TrackRecord *track(uint32_t id) const;
  const std::map<uint32_t, StackRecord> &stacks() const { return stacks_; }
  const StackRecord *stack(uint32_t id) const;
  /// Argument sets by id (none in reports written before plugin ABI 1.5).
  const ArgSets &args() const { return args_; }
  const std::map<uint32_t, ClockDomainRecord> &clock_domains() const { return clocks_; }
  /// The last record of each ring, by ring index.
  const std::map<uint32_t, DropRecord> &drops() const { return drops_; }
  /// Events dropped because their ring was full.
  uint64_t total_dropped() const;
  /// Events or records lost under `cause` (PROF_DROP_RING_FULL: total_dropped()).
  uint64_t dropped(prof_drop_cause cause) const;
  /// Absent when the capture was cut or the END chunk is damaged.
  const std::optional<Footer> &footer() const { return footer_; }

  /// Events in the valid EVENTS chunks.
  uint64_t event_count() const { return event_count_; }
  std::vector<prof_event> read_all_events() const;
  /// Calls `visit` once per EVENTS chunk, in file order, decoding one chunk at
  /// a time so that a huge report need not fit in memory.
  void for_each_event_batch(const std::function<void(const prof_event *, size_t)> &visit) const;

  /// Where a valid EVENTS chunk's payload lies in the file.
  struct EventChunk {
    uint64_t payload_offset;
    uint32_t payload_size;
    uint32_t events; ///< how many it holds
    uint16_t flags;  ///< kChunkZstd when the payload is compressed
  };
  /// The valid EVENTS chunks, in file order: for decoding them apart.
  const std::vector<EventChunk> &event_chunks() const { return event_chunks_; }
  /// Decodes one of event_chunks() into `out` (replacing its contents). Reads
  /// the file only, so several threads may decode chunks at once. The chunk's
  /// bytes are then released from memory (MappedFile::release).
  bool decode_events(const EventChunk &chunk, std::vector<prof_event> &out) const;

private:
  void reset();
  void read_chunks();
  /// Applies one valid chunk; false when its payload is malformed.
  bool apply_chunk(uint16_t type, uint16_t flags, std::span<const uint8_t> payload,
                   uint64_t offset);
  bool apply_header(std::span<const uint8_t> payload);
  bool apply_strings(std::span<const uint8_t> payload);
  bool apply_events(std::span<const uint8_t> payload, uint16_t flags, uint64_t payload_offset);
  void fail(ReportStatus status, std::string message);
  std::string quoted_path() const { return "'" + path_ + "'"; }

  std::string path_;
  ReadOptions options_;
  MappedFile file_;
  ReportStatus status_ = ReportStatus::cannot_open;
  bool truncated_ = false;
  bool stopped_ = false; // an unsupported version ends the read
  std::vector<std::string> problems_;
  std::vector<uint64_t> corrupted_offsets_;
  uint64_t file_size_ = 0;
  uint64_t last_whole_chunk_end_ = 0;
  uint64_t skipped_chunks_ = 0;

  bool has_header_ = false;
  Header header_;
  std::vector<std::string> strings_;
  std::map<uint32_t, TrackRecord> tracks_;
  std::map<uint32_t, StackRecord> stacks_;
  ArgSets args_;
  std::map<uint32_t, ClockDomainRecord> clocks_;
  std::map<uint32_t, DropRecord> drops_;
  std::optional<Footer> footer_;
  std::vector<EventChunk> event_chunks_;
  uint64_t event_count_ = 0;
  std::vector<prof_event> scratch_; // reused while validating EVENTS chunks
};

} // namespace prof::report
