// Layout of one .profrep chunk: a 16-byte header then the payload.
//
//   u32 magic | u16 type | u16 flags | u32 payload length | u32 crc32c
//
// All little-endian. The CRC covers type, flags, length and the payload, so a
// damaged length is caught as well as damaged data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace prof::report {

/// "PROF" as it appears in the file.
inline constexpr uint32_t kChunkMagic = 0x464F5250u;
inline constexpr size_t kChunkHeaderSize = 16;
/// Version written in the HEADER chunk; a reader accepts 1..kFormatVersion.
/// Version 2 writes EVENTS payloads in their second layout (event_columns.hpp).
inline constexpr uint32_t kFormatVersion = 2;
/// Upper bound on one payload so a length can never wrap a 32-bit field.
inline constexpr uint32_t kMaxPayloadSize = 0xF0000000u;

enum class ChunkType : uint16_t {
  header = 1,
  strings = 2,
  tracks = 3,
  stacks = 4,
  clocks = 5,
  drops = 6,
  events = 7,
  end = 8,
  args = 9,         ///< argument sets (plugin ABI 1.5); older readers skip them
  track_flags = 10, ///< flags of tracks written before (plugin ABI 1.10); older readers skip them
};

/// Lower-case name of a chunk type for messages ("events"); "unknown" otherwise.
std::string_view chunk_type_name(uint16_t type);

struct ChunkHeader {
  uint32_t magic = kChunkMagic;
  uint16_t type = 0;
  uint16_t flags = 0;
  uint32_t length = 0;
  uint32_t crc = 0;
};

/// Serialises `h` into 16 bytes.
void store_chunk_header(const ChunkHeader &h, uint8_t out[kChunkHeaderSize]);
/// Reads the 16 bytes at `in`.
ChunkHeader load_chunk_header(const uint8_t in[kChunkHeaderSize]);

/// CRC of a chunk whose payload is the concatenation of `pieces`.
uint32_t chunk_crc(uint16_t type, uint16_t flags, uint32_t length,
                   std::span<const std::span<const uint8_t>> pieces);

/// A whole chunk (header and payload) as bytes: for tools and tests.
std::vector<uint8_t> encode_chunk(uint16_t type, uint16_t flags, std::span<const uint8_t> payload);

} // namespace prof::report
