#include "core/report/chunk.hpp"

#include "core/report/crc32c.hpp"

#include <cstring>

namespace prof::report {

std::string_view chunk_type_name(uint16_t type) {
  switch (static_cast<ChunkType>(type)) {
  case ChunkType::header:
    return "header";
  case ChunkType::strings:
    return "strings";
  case ChunkType::tracks:
    return "tracks";
  case ChunkType::stacks:
    return "stacks";
  case ChunkType::args:
    return "args";
  case ChunkType::track_flags:
    return "track flags";
  case ChunkType::clocks:
    return "clocks";
  case ChunkType::drops:
    return "drops";
  case ChunkType::events:
    return "events";
  case ChunkType::end:
    return "end";
  }
  return "unknown";
}

void store_chunk_header(const ChunkHeader &h, uint8_t out[kChunkHeaderSize]) {
  std::memcpy(out, &h.magic, 4);
  std::memcpy(out + 4, &h.type, 2);
  std::memcpy(out + 6, &h.flags, 2);
  std::memcpy(out + 8, &h.length, 4);
  std::memcpy(out + 12, &h.crc, 4);
}

ChunkHeader load_chunk_header(const uint8_t in[kChunkHeaderSize]) {
  ChunkHeader h;
  std::memcpy(&h.magic, in, 4);
  std::memcpy(&h.type, in + 4, 2);
  std::memcpy(&h.flags, in + 6, 2);
  std::memcpy(&h.length, in + 8, 4);
  std::memcpy(&h.crc, in + 12, 4);
  return h;
}

uint32_t chunk_crc(uint16_t type, uint16_t flags, uint32_t length,
                   std::span<const std::span<const uint8_t>> pieces) {
  uint8_t fields[8];
  std::memcpy(fields, &type, 2);
  std::memcpy(fields + 2, &flags, 2);
  std::memcpy(fields + 4, &length, 4);
  uint32_t crc = crc32c(fields, sizeof fields);
  for (const auto &piece : pieces)
    crc = crc32c_extend(crc, piece.data(), piece.size());
  return crc;
}

std::vector<uint8_t> encode_chunk(uint16_t type, uint16_t flags, std::span<const uint8_t> payload) {
  ChunkHeader h;
  h.type = type;
  h.flags = flags;
  h.length = static_cast<uint32_t>(payload.size());
  const std::span<const uint8_t> pieces[] = {payload};
  h.crc = chunk_crc(type, flags, h.length, pieces);
  std::vector<uint8_t> out(kChunkHeaderSize + payload.size());
  store_chunk_header(h, out.data());
  if (!payload.empty()) std::memcpy(out.data() + kChunkHeaderSize, payload.data(), payload.size());
  return out;
}

} // namespace prof::report
