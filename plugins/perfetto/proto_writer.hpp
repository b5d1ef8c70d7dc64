// ProtoWriter: appends protobuf wire format (varints, fixed64, length-
// delimited fields, nested messages) to a growable byte buffer. No protobuf
// library: the exporter writes Perfetto's trace format with this alone.
//
// Nested messages are written in place: begin_nested() leaves one byte for
// the length and end_nested() fills it in; a message of 128 bytes or more
// (rare: a packet is usually 20-60 bytes) moves its body up by the extra
// length bytes. Lengths are always minimal varints.
#ifndef PROF_PLUGINS_PERFETTO_PROTO_WRITER_HPP
#define PROF_PLUGINS_PERFETTO_PROTO_WRITER_HPP

#include "wire_format.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace prof::perfetto {

/// Writes `value` little-endian at `out` (room for 8 bytes); returns the end.
inline uint8_t *put_fixed64(uint8_t *out, uint64_t value) {
  if constexpr (std::endian::native == std::endian::big) value = __builtin_bswap64(value);
  std::memcpy(out, &value, sizeof value);
  return out + sizeof value;
}

/// Writes `value` as a varint at `out` (room for 10 bytes); returns the end.
inline uint8_t *put_varint(uint8_t *out, uint64_t value) {
  while (value >= 0x80) {
    *out++ = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  *out++ = static_cast<uint8_t>(value);
  return out;
}

class ProtoWriter {
public:
  /// Deepest nesting of begin_nested() calls.
  static constexpr size_t kMaxDepth = 8;

  explicit ProtoWriter(size_t initial_capacity = 1 << 16) {
    buffer_.resize(initial_capacity < 16 ? 16 : initial_capacity);
    cur_ = buffer_.data();
    limit_ = cur_ + buffer_.size();
  }
  ProtoWriter(const ProtoWriter &) = delete;
  ProtoWriter &operator=(const ProtoWriter &) = delete;

  void varint(uint64_t value) {
    reserve(10);
    cur_ = put_varint(cur_, value);
  }
  void tag(uint32_t field, WireType type) { varint(field_tag(field, type)); }

  /// uint32/uint64/int32/int64/enum/bool field. Negative int32/int64 values
  /// take ten bytes, as protobuf encodes them.
  void field_varint(uint32_t field, uint64_t value) {
    tag(field, WireType::Varint);
    varint(value);
  }
  void field_int(uint32_t field, int64_t value) {
    field_varint(field, static_cast<uint64_t>(value));
  }
  void field_fixed64(uint32_t field, uint64_t value) {
    tag(field, WireType::Fixed64);
    reserve(8);
    cur_ = put_fixed64(cur_, value);
  }
  void field_double(uint32_t field, double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    field_fixed64(field, bits);
  }
  /// string or bytes field.
  void field_bytes(uint32_t field, std::string_view bytes) {
    tag(field, WireType::LengthDelimited);
    varint(bytes.size());
    raw(bytes.data(), bytes.size());
  }

  /// Opens a nested message in `field`; close it with end_nested().
  void begin_nested(uint32_t field) {
    tag(field, WireType::LengthDelimited);
    reserve(1);
    open_[depth_++] = size();
    ++cur_; // the length byte, filled in by end_nested()
  }
  void end_nested() {
    const size_t start = open_[--depth_];
    const size_t length = size() - start - 1;
    if (length < 0x80) {
      buffer_[start] = static_cast<uint8_t>(length);
    } else {
      patch_long_length(start, length);
    }
  }
  size_t depth() const { return depth_; }

  void raw(const void *data, size_t length) {
    reserve(length);
    std::memcpy(cur_, data, length);
    cur_ += length;
  }

  /// Unchecked writing for hot paths: room for `extra` bytes at the returned
  /// position; write at most that many, then pass the new end to commit().
  uint8_t *claim(size_t extra) {
    reserve(extra);
    return cur_;
  }
  void commit(uint8_t *end) { cur_ = end; }

  const uint8_t *data() const { return buffer_.data(); }
  size_t size() const { return static_cast<size_t>(cur_ - buffer_.data()); }
  std::string_view view() const { return {reinterpret_cast<const char *>(data()), size()}; }
  /// Forgets the bytes written (keeps the capacity).
  void clear() { cur_ = buffer_.data(); }
  /// Exchanges contents with `other`, without copying bytes.
  void swap(ProtoWriter &other) {
    buffer_.swap(other.buffer_);
    std::swap(cur_, other.cur_);
    std::swap(limit_, other.limit_);
    std::swap(open_, other.open_);
    std::swap(depth_, other.depth_);
  }

private:
  void reserve(size_t extra) {
    if (static_cast<size_t>(limit_ - cur_) < extra) grow(extra);
  }
  void grow(size_t extra);
  void patch_long_length(size_t start, size_t length);

  std::vector<uint8_t> buffer_;
  uint8_t *cur_ = nullptr;   ///< next byte to write
  uint8_t *limit_ = nullptr; ///< end of buffer_
  size_t open_[kMaxDepth]{}; ///< offsets of the open messages' length bytes
  size_t depth_ = 0;
};

} // namespace prof::perfetto

#endif
