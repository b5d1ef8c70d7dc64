// Little-endian fixed-width values, LEB128 varints and zigzag, with a
// bounds-checked reader: the building blocks of the report's chunk payloads
// and of other byte formats prof writes (the stats aggregators' wire).
#ifndef PROF_BYTE_CODEC_HPP
#define PROF_BYTE_CODEC_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace prof {

/// The most bytes a LEB128 varint of 64 bits takes.
inline constexpr size_t kMaxVarintBytes = 10;

/// Signed to unsigned, small magnitudes small: 0, -1, 1, -2 ... to 0, 1, 2, 3 ...
inline uint64_t zigzag_encode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
/// The inverse of zigzag_encode.
inline int64_t zigzag_decode(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

/// Writes `v` at `p`, which must have kMaxVarintBytes of room; returns the end.
inline uint8_t *put_varint(uint8_t *p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

/// Appends encoded values to a byte vector.
class ByteWriter {
public:
  /// Appends to `out`, which must outlive the writer.
  explicit ByteWriter(std::vector<uint8_t> &out) : out_(out) {}

  /// Fixed-width little-endian values.
  void u8(uint8_t v) { out_.push_back(v); }
  void u16(uint16_t v) { fixed(v); } ///< see u8
  void u32(uint32_t v) { fixed(v); } ///< see u8
  void u64(uint64_t v) { fixed(v); } ///< see u8
  void f64(double v) { fixed(v); }   ///< see u8
  /// An unsigned LEB128 varint.
  void varint(uint64_t v) {
    uint8_t tmp[kMaxVarintBytes];
    bytes(tmp, static_cast<size_t>(put_varint(tmp, v) - tmp));
  }
  /// A signed value, zigzag then varint.
  void svarint(int64_t v) { varint(zigzag_encode(v)); }
  /// Length-prefixed text.
  void string(std::string_view s) {
    varint(s.size());
    bytes(s.data(), s.size());
  }
  /// Raw bytes, as they are.
  void bytes(const void *data, size_t size) {
    const auto *p = static_cast<const uint8_t *>(data);
    out_.insert(out_.end(), p, p + size);
  }

private:
  template <typename T> void fixed(T v) {
    bytes(&v, sizeof v);
  } // hosts are little-endian (checked in crc32c.cpp)
  std::vector<uint8_t> &out_;
};

/// Reads encoded values from a byte range. Any read past the end, or any
/// over-long varint, marks the reader failed and returns zero: callers check
/// ok() once at the end and never read outside the range.
class ByteReader {
public:
  /// An empty range: every read fails.
  ByteReader() = default;
  /// Reads `bytes`, which must outlive the reader.
  explicit ByteReader(std::span<const uint8_t> bytes)
      : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  /// False once any read failed.
  bool ok() const { return ok_; }
  /// Marks the reader failed (a value made no sense to its caller).
  void fail() {
    ok_ = false;
    p_ = end_;
  }
  /// Bytes not read yet.
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  /// Whether every byte was read.
  bool at_end() const { return p_ == end_; }

  /// Fixed-width little-endian values.
  uint8_t u8() { return fixed<uint8_t>(); }
  uint16_t u16() { return fixed<uint16_t>(); } ///< see u8
  uint32_t u32() { return fixed<uint32_t>(); } ///< see u8
  uint64_t u64() { return fixed<uint64_t>(); } ///< see u8
  double f64() { return fixed<double>(); }     ///< see u8

  /// An unsigned LEB128 varint of at most 64 bits.
  uint64_t varint() {
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (p_ == end_) break;
      const uint8_t b = *p_++;
      if (shift == 63 && b > 1) break; // would overflow 64 bits
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
    fail();
    return 0;
  }
  /// A varint that must fit 32 bits.
  uint32_t varint32() {
    const uint64_t v = varint();
    if (v > UINT32_MAX) {
      fail();
      return 0;
    }
    return static_cast<uint32_t>(v);
  }
  /// A zigzag varint.
  int64_t svarint() { return zigzag_decode(varint()); }
  /// A zigzag varint that must fit 32 bits.
  int32_t svarint32() {
    const int64_t v = svarint();
    if (v < INT32_MIN || v > INT32_MAX) {
      fail();
      return 0;
    }
    return static_cast<int32_t>(v);
  }
  /// A count of items that each take at least one byte: larger than what is
  /// left means a malformed payload (and keeps allocations bounded).
  size_t count() {
    const uint64_t n = varint();
    if (n > remaining()) {
      fail();
      return 0;
    }
    return static_cast<size_t>(n);
  }
  /// The next `n` raw bytes, empty (failed) when fewer are left.
  std::span<const uint8_t> bytes(size_t n) {
    if (n > remaining()) {
      fail();
      return {};
    }
    std::span<const uint8_t> s(p_, n);
    p_ += n;
    return s;
  }
  /// Length-prefixed text.
  std::string string() {
    const auto s = bytes(count());
    return std::string(reinterpret_cast<const char *>(s.data()), s.size());
  }

private:
  template <typename T> T fixed() {
    T v{};
    if (remaining() < sizeof v) {
      fail();
      return v;
    }
    std::memcpy(&v, p_, sizeof v);
    p_ += sizeof v;
    return v;
  }
  const uint8_t *p_ = nullptr;
  const uint8_t *end_ = nullptr;
  bool ok_ = true;
};

} // namespace prof

#endif
