// The protobuf wire format with no protobuf library: wire types, field tags,
// varint sizes, and ProtobufMessage, an append-only writer of one message
// for formats prof writes whole (pprof's profile.proto). Perfetto's
// streaming writer (plugins/perfetto) spells its tags with the same types.
#ifndef PROF_PROTOBUF_WIRE_HPP
#define PROF_PROTOBUF_WIRE_HPP

#include <prof/byte_codec.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace prof::protobuf {

/// Protobuf wire types. 3 and 4 (start and end of a group) are deprecated
/// and never written; 6 and 7 are not protobuf.
enum class WireType : uint32_t { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

/// A field's tag: its number and wire type.
constexpr uint32_t field_tag(uint32_t field, WireType type) {
  return (field << 3) | static_cast<uint32_t>(type);
}

/// Number of bytes of `value` as a varint (1..10).
constexpr size_t varint_size(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

/// One message's bytes, appended field by field. A nested message is
/// written into its own ProtobufMessage and added with message().
class ProtobufMessage {
public:
  /// A uint32/uint64/int32/int64/enum/bool field; zero values are left
  /// out, as proto3 writes them.
  void varint_field(uint32_t field, uint64_t value) {
    if (value == 0) return;
    varint(field_tag(field, WireType::Varint));
    varint(value);
  }
  /// An int64 field (negative values take ten bytes, as protobuf writes them).
  void int_field(uint32_t field, int64_t value) {
    varint_field(field, static_cast<uint64_t>(value));
  }
  /// A string or bytes field, written even when empty (repeated strings).
  void bytes_field(uint32_t field, std::string_view bytes) {
    varint(field_tag(field, WireType::LengthDelimited));
    varint(bytes.size());
    bytes_.append(bytes);
  }
  /// A repeated varint field, packed; nothing for no values.
  void packed_field(uint32_t field, std::span<const uint64_t> values) {
    if (values.empty()) return;
    size_t length = 0;
    for (uint64_t v : values)
      length += varint_size(v);
    varint(field_tag(field, WireType::LengthDelimited));
    varint(length);
    for (uint64_t v : values)
      varint(v);
  }
  /// A nested message field.
  void message(uint32_t field, const ProtobufMessage &nested) {
    bytes_field(field, nested.bytes());
  }

  std::string_view bytes() const { return bytes_; }
  std::string take() { return std::move(bytes_); }
  void clear() { bytes_.clear(); }

private:
  void varint(uint64_t value) {
    char tmp[kMaxVarintBytes];
    auto *start = reinterpret_cast<uint8_t *>(tmp);
    bytes_.append(tmp, static_cast<size_t>(put_varint(start, value) - start));
  }
  std::string bytes_;
};

} // namespace prof::protobuf

#endif
