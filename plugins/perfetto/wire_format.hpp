// The protobuf wire format as both directions of the perfetto plugin see it:
// wire types, field tags and varint sizes (proto_writer.hpp writes them,
// read/proto_reader.hpp reads them).
#ifndef PROF_PLUGINS_PERFETTO_WIRE_FORMAT_HPP
#define PROF_PLUGINS_PERFETTO_WIRE_FORMAT_HPP

#include <cstddef>
#include <cstdint>

namespace prof::perfetto {

/// Protobuf wire types. 3 and 4 (start and end of a group) are not part of
/// Perfetto's format; 6 and 7 are not protobuf.
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

} // namespace prof::perfetto

#endif
