// 64-bit values stored as byte planes, which zstd compresses much better
// than varints when the values are noisy in their low bytes:
//
//   u8 width w (0..8) | w planes of n bytes, plane b holding byte b of every value
//
// w is the fewest bytes that hold the largest value; w = 0 means every value is 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace prof::report {

/// Room write_byte_planes() needs for `count` values.
inline constexpr size_t byte_planes_room(size_t count) { return 1 + 8 * count; }

/// Writes `values` as byte planes at `out`; returns the bytes written.
size_t write_byte_planes(std::span<const uint64_t> values, uint8_t *out);

/// Reads the values of a byte-plane column in order. open() decodes the
/// whole column at once, plane by plane (sequential reads, no per-value
/// loop over the width); a reader kept for the next column reuses its room.
class BytePlaneReader {
public:
  /// False when `column` is not a width byte followed by whole planes.
  bool open(std::span<const uint8_t> column);
  /// The next value; past the last one, 0 and ok() turns false.
  uint64_t next() {
    if (at_ < values_.size()) return values_[at_++];
    ok_ = ok_ && width_ == 0;
    return 0;
  }
  bool ok() const { return ok_; }
  /// Every value read (always true for width 0, whose count is not stored).
  bool at_end() const { return at_ == values_.size(); }

private:
  std::vector<uint64_t> values_;
  size_t width_ = 0;
  size_t at_ = 0;
  bool ok_ = true;
};

} // namespace prof::report
