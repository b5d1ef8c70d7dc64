// ProtoReader: reads protobuf wire format field by field, checking every
// length against the bytes there are. No protobuf library: the importer
// reads Perfetto's trace format with this alone, as the exporter writes it
// with ProtoWriter.
//
// Offsets are those of the whole file: a reader of a nested message knows
// where its bytes start, so an error names the byte where the data went
// wrong ("expected 40 bytes of field 11 at offset 1234, found 12"). Unknown
// fields are skipped by the caller (next() has already stepped over them);
// groups (wire types 3 and 4), which Perfetto's protos never use, and wire
// types 6 and 7, which do not exist, are errors.
#ifndef PROF_PLUGINS_PERFETTO_READ_PROTO_READER_HPP
#define PROF_PLUGINS_PERFETTO_READ_PROTO_READER_HPP

#include "wire_format.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace prof::perfetto {

/// Malformed data: what was expected where, one line ending in the offset.
class WireError : public std::runtime_error {
public:
  WireError(const std::string &expected, uint64_t offset)
      : std::runtime_error(expected + " at offset " + std::to_string(offset)), offset_(offset) {}
  uint64_t offset() const { return offset_; }

private:
  uint64_t offset_;
};

/// One field as it is on the wire.
struct WireField {
  uint32_t number = 0;
  WireType type = WireType::Varint;
  uint64_t value = 0;          ///< a varint's value, a fixed32's or fixed64's bits
  std::string_view bytes;      ///< a length-delimited field's payload
  uint64_t offset = 0;         ///< file offset of its tag
  uint64_t payload_offset = 0; ///< file offset of its value (of `bytes`)

  int64_t as_int64() const { return static_cast<int64_t>(value); }
  /// An int32 as protobuf encodes one: negative ones sign-extended to 64 bits.
  int32_t as_int32() const { return static_cast<int32_t>(static_cast<uint32_t>(value)); }
  double as_double() const;
  bool as_bool() const { return value != 0; }
};

class ProtoReader {
public:
  /// Reads `message`, whose first byte is at file offset `base`.
  explicit ProtoReader(std::string_view message, uint64_t base = 0) : data_(message), base_(base) {}
  /// A reader of the message in length-delimited `field`.
  static ProtoReader nested(const WireField &field) {
    return ProtoReader(field.bytes, field.payload_offset);
  }

  /// Reads the next field into `field`; false at the end of the message.
  /// Throws WireError where a field is cut or malformed.
  bool next(WireField &field);

  /// File offset of the next byte to read.
  uint64_t offset() const { return base_ + pos_; }
  bool at_end() const { return pos_ >= data_.size(); }

private:
  uint64_t varint(const char *what);

  std::string_view data_;
  uint64_t base_ = 0;
  size_t pos_ = 0;
};

/// Throws WireError unless `field` has wire type `type`; `what` names the
/// field as the schema does ("TrackEvent.name").
void expect_type(const WireField &field, WireType type, std::string_view what);

/// The field's text (a string or bytes field).
inline std::string_view text_of(const WireField &field, std::string_view what) {
  expect_type(field, WireType::LengthDelimited, what);
  return field.bytes;
}

/// A scalar varint field (uint64, int64, enum, bool).
inline uint64_t varint_of(const WireField &field, std::string_view what) {
  expect_type(field, WireType::Varint, what);
  return field.value;
}

/// A message field: a reader of its payload.
inline ProtoReader message_of(const WireField &field, std::string_view what) {
  expect_type(field, WireType::LengthDelimited, what);
  return ProtoReader::nested(field);
}

/// Calls `f(value)` for each value of a repeated varint field, one value or
/// packed.
template <class F> void for_each_varint(const WireField &field, std::string_view what, F &&f);

/// Calls `f(bits)` for each value of a repeated fixed64 field (fixed64,
/// double), one value or packed.
template <class F> void for_each_fixed64(const WireField &field, std::string_view what, F &&f);

/// Reads a varint from `data` at `pos` (advanced past it); false when the
/// data ends first or it is longer than 10 bytes. For probing bytes that may
/// be no protobuf at all, without exceptions.
bool read_varint(std::string_view data, size_t &pos, uint64_t &value);

// Implementation of the templates.

namespace detail {
[[noreturn]] void throw_packed_error(const WireField &field, std::string_view what, size_t at);
} // namespace detail

template <class F> void for_each_varint(const WireField &field, std::string_view what, F &&f) {
  if (field.type == WireType::Varint) {
    f(field.value);
    return;
  }
  expect_type(field, WireType::LengthDelimited, what);
  size_t pos = 0;
  while (pos < field.bytes.size()) {
    uint64_t value = 0;
    const size_t at = pos;
    if (!read_varint(field.bytes, pos, value)) detail::throw_packed_error(field, what, at);
    f(value);
  }
}

template <class F> void for_each_fixed64(const WireField &field, std::string_view what, F &&f) {
  if (field.type == WireType::Fixed64) {
    f(field.value);
    return;
  }
  expect_type(field, WireType::LengthDelimited, what);
  if (field.bytes.size() % 8 != 0)
    detail::throw_packed_error(field, what, field.bytes.size() / 8 * 8);
  for (size_t pos = 0; pos < field.bytes.size(); pos += 8) {
    uint64_t bits = 0;
    for (int i = 7; i >= 0; --i)
      bits = (bits << 8) | static_cast<uint8_t>(field.bytes[pos + static_cast<size_t>(i)]);
    f(bits);
  }
}

} // namespace prof::perfetto

#endif
