#include "read/proto_reader.hpp"

#include <cstring>

namespace prof::perfetto {
namespace {

const char *wire_type_name(WireType type) {
  switch (type) {
  case WireType::Varint:
    return "a varint";
  case WireType::Fixed64:
    return "a fixed64";
  case WireType::LengthDelimited:
    return "length-delimited";
  case WireType::Fixed32:
    return "a fixed32";
  }
  return "?";
}

uint64_t little_endian(std::string_view bytes) {
  uint64_t value = 0;
  for (size_t i = bytes.size(); i-- > 0;)
    value = (value << 8) | static_cast<uint8_t>(bytes[i]);
  return value;
}

} // namespace

double WireField::as_double() const {
  double d = 0;
  static_assert(sizeof d == sizeof value);
  std::memcpy(&d, &value, sizeof d);
  return d;
}

bool read_varint(std::string_view data, size_t &pos, uint64_t &value) {
  value = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    if (pos >= data.size()) return false;
    const auto byte = static_cast<uint8_t>(data[pos++]);
    if (shift == 63 && byte > 1) return false; // more than 64 bits
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

uint64_t ProtoReader::varint(const char *what) {
  const size_t start = pos_;
  uint64_t value = 0;
  if (read_varint(data_, pos_, value)) return value;
  pos_ = start;
  // Cut when the data ends before the varint's last byte (one below 0x80).
  bool cut = data_.size() - start < 10;
  for (size_t i = start; i < data_.size() && i < start + 10; ++i)
    if ((static_cast<uint8_t>(data_[i]) & 0x80) == 0) cut = false;
  throw WireError(std::string("expected ") + what +
                      (cut ? ", found the end of the data" : ", found more than 64 bits"),
                  base_ + start);
}

bool ProtoReader::next(WireField &field) {
  if (pos_ >= data_.size()) return false;
  const size_t start = pos_;
  const uint64_t tag = varint("a field tag (a varint)");
  const auto wire = static_cast<uint32_t>(tag & 7);
  const uint64_t number = tag >> 3;
  if (number == 0 || number > 0x1fffffff)
    throw WireError("expected a field tag, found field number " + std::to_string(number),
                    base_ + start);
  field = WireField{};
  field.number = static_cast<uint32_t>(number);
  field.offset = base_ + start;
  const auto cut = [&](size_t need) {
    return WireError("expected " + std::to_string(need) + " bytes of field " +
                         std::to_string(number) + ", found " + std::to_string(data_.size() - pos_) +
                         " before the end of the data",
                     base_ + pos_);
  };
  switch (wire) {
  case 0:
    field.type = WireType::Varint;
    field.payload_offset = base_ + pos_;
    field.value = varint("a varint value of a field");
    return true;
  case 1:
  case 5: {
    field.type = wire == 1 ? WireType::Fixed64 : WireType::Fixed32;
    const size_t size = wire == 1 ? 8 : 4;
    if (data_.size() - pos_ < size) throw cut(size);
    field.payload_offset = base_ + pos_;
    field.value = little_endian(data_.substr(pos_, size));
    pos_ += size;
    return true;
  }
  case 2: {
    field.type = WireType::LengthDelimited;
    const uint64_t length = varint("the length of a field (a varint)");
    if (length > data_.size() - pos_) {
      // Name the full length even where it is absurd: it is what was expected.
      throw WireError("expected " + std::to_string(length) + " bytes of field " +
                          std::to_string(number) + ", found " +
                          std::to_string(data_.size() - pos_) + " before the end of the data",
                      base_ + pos_);
    }
    field.payload_offset = base_ + pos_;
    field.bytes = data_.substr(pos_, static_cast<size_t>(length));
    pos_ += static_cast<size_t>(length);
    return true;
  }
  case 3:
  case 4:
    pos_ = start;
    throw WireError("expected a field of wire type 0, 1, 2 or 5, found a group (wire type " +
                        std::to_string(wire) + ") in field " + std::to_string(number),
                    base_ + start);
  default:
    pos_ = start;
    throw WireError("expected a field of wire type 0, 1, 2 or 5, found wire type " +
                        std::to_string(wire) + " in field " + std::to_string(number),
                    base_ + start);
  }
}

void expect_type(const WireField &field, WireType type, std::string_view what) {
  if (field.type == type) return;
  throw WireError("expected " + std::string(what) + " (field " + std::to_string(field.number) +
                      ") to be " + wire_type_name(type) + ", found " + wire_type_name(field.type),
                  field.offset);
}

namespace detail {
void throw_packed_error(const WireField &field, std::string_view what, size_t at) {
  throw WireError("expected packed values of " + std::string(what) + " (field " +
                      std::to_string(field.number) + "), found a cut value",
                  field.payload_offset + at);
}
} // namespace detail

} // namespace prof::perfetto
