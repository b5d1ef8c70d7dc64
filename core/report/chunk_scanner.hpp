// Walks the chunks of a report held in memory: yields every whole chunk whose
// checksum holds, skips damaged ones by scanning forward for the next valid
// chunk, and notes where a cut file stops.
#pragma once

#include "core/report/chunk.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace prof::report {

struct ChunkView {
  uint64_t offset = 0; ///< of the chunk header in the file
  uint16_t type = 0;
  uint16_t flags = 0;
  std::span<const uint8_t> payload;
  uint64_t end() const { return offset + kChunkHeaderSize + payload.size(); }
};

struct DamagedChunk {
  uint64_t offset = 0;
  std::string_view reason;            ///< "checksum mismatch", ...
  std::optional<uint64_t> resumed_at; ///< the next valid chunk, if any
};

class ChunkScanner {
public:
  explicit ChunkScanner(std::span<const uint8_t> file) : file_(file) {}

  /// The next whole, checksum-valid chunk; nullopt at the end of the file.
  std::optional<ChunkView> next();

  const std::vector<DamagedChunk> &damaged() const { return damaged_; }
  /// True once the scan ended inside a chunk: the file was cut.
  bool cut() const { return cut_; }
  /// End of the last valid chunk returned (0 before the first).
  uint64_t last_whole_chunk_end() const { return last_end_; }

private:
  /// A valid chunk starting at `at`, if there is one.
  std::optional<ChunkView> valid_chunk_at(uint64_t at) const;
  /// The first valid chunk at or after `from`.
  std::optional<uint64_t> find_valid_chunk(uint64_t from) const;
  void skip_damaged(std::string_view reason);

  std::span<const uint8_t> file_;
  uint64_t pos_ = 0;
  uint64_t last_end_ = 0;
  bool cut_ = false;
  std::vector<DamagedChunk> damaged_;
};

} // namespace prof::report
