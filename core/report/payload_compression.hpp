// zstd compression of EVENTS payloads. A compressed chunk carries
// kChunkZstd in its flags; its payload is one zstd frame whose content is
// the EVENTS payload (event_columns.hpp), with the content size recorded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace prof::report {

/// Chunk flag: the payload is a zstd frame.
inline constexpr uint16_t kChunkZstd = 1;
/// Readers refuse a frame that claims more than this many times its size.
inline constexpr uint64_t kMaxCompressionRatio = 1024;

/// Compresses the concatenation of `pieces` into `out` (replacing it), with a
/// reused context. False when the result would not be smaller, or would be
/// so small that readers would take it for a damaged frame.
class PayloadCompressor {
public:
  explicit PayloadCompressor(int level = 1);
  ~PayloadCompressor();
  PayloadCompressor(const PayloadCompressor &) = delete;
  PayloadCompressor &operator=(const PayloadCompressor &) = delete;
  bool compress(std::span<const std::span<const uint8_t>> pieces, std::vector<uint8_t> &out);

private:
  struct Context;
  std::unique_ptr<Context> context_;
};

/// Decompresses a frame into `out` (replacing it); false when it is not a
/// whole frame, does not record its size, or would decompress to more than
/// kMaxPayloadSize or kMaxCompressionRatio times its own size (a damaged or
/// hostile file).
bool decompress_payload(std::span<const uint8_t> frame, std::vector<uint8_t> &out);

/// The first `count` bytes of a frame's content without decompressing the
/// rest (the event count at the start of an EVENTS payload); false if unreadable.
bool peek_payload_prefix(std::span<const uint8_t> frame, uint8_t *prefix, size_t count);

} // namespace prof::report
