#include "core/report/chunk_scanner.hpp"

#include "core/report/chunk.hpp"

#include <cstring>

namespace prof::report {

std::optional<ChunkView> ChunkScanner::next() {
  while (pos_ < file_.size()) {
    const uint64_t left = file_.size() - pos_;
    if (left < kChunkHeaderSize) {
      cut_ = true;
      pos_ = file_.size();
      return std::nullopt;
    }
    const ChunkHeader h = load_chunk_header(file_.data() + pos_);
    if (h.magic != kChunkMagic) {
      skip_damaged("bad chunk magic");
      continue;
    }
    if (h.length > left - kChunkHeaderSize) {
      // Either the file ends inside this chunk, or its length is damaged and
      // whole chunks still follow.
      if (find_valid_chunk(pos_ + 1)) {
        skip_damaged("length runs past the end of the file");
        continue;
      }
      cut_ = true;
      pos_ = file_.size();
      return std::nullopt;
    }
    if (auto chunk = valid_chunk_at(pos_)) {
      pos_ = last_end_ = chunk->end();
      return chunk;
    }
    skip_damaged("checksum mismatch");
  }
  return std::nullopt;
}

std::optional<ChunkView> ChunkScanner::valid_chunk_at(uint64_t at) const {
  if (file_.size() - at < kChunkHeaderSize) return std::nullopt;
  const ChunkHeader h = load_chunk_header(file_.data() + at);
  if (h.magic != kChunkMagic || h.length > file_.size() - at - kChunkHeaderSize)
    return std::nullopt;
  const auto payload = file_.subspan(at + kChunkHeaderSize, h.length);
  const std::span<const uint8_t> pieces[] = {payload};
  if (chunk_crc(h.type, h.flags, h.length, pieces) != h.crc) return std::nullopt;
  return ChunkView{at, h.type, h.flags, payload};
}

std::optional<uint64_t> ChunkScanner::find_valid_chunk(uint64_t from) const {
  uint8_t magic[4];
  std::memcpy(magic, &kChunkMagic, 4);
  for (uint64_t at = from; at + kChunkHeaderSize <= file_.size();) {
    const void *hit = std::memchr(file_.data() + at, magic[0], file_.size() - at);
    if (hit == nullptr) break;
    at = static_cast<uint64_t>(static_cast<const uint8_t *>(hit) - file_.data());
    if (at + kChunkHeaderSize > file_.size()) break;
    if (std::memcmp(file_.data() + at, magic, 4) == 0 && valid_chunk_at(at)) return at;
    ++at;
  }
  return std::nullopt;
}

void ChunkScanner::skip_damaged(std::string_view reason) {
  const auto resume = find_valid_chunk(pos_ + 1);
  damaged_.push_back({pos_, reason, resume});
  pos_ = resume ? *resume : file_.size();
}

} // namespace prof::report
