#include "core/report/byte_planes.hpp"

namespace prof::report {

size_t write_byte_planes(std::span<const uint64_t> values, uint8_t *out) {
  uint64_t any = 0;
  for (const uint64_t v : values)
    any |= v;
  size_t width = 0;
  for (; any != 0; any >>= 8)
    ++width;
  out[0] = static_cast<uint8_t>(width);
  uint8_t *plane = out + 1;
  for (size_t b = 0; b < width; ++b, plane += values.size())
    for (size_t i = 0; i < values.size(); ++i)
      plane[i] = static_cast<uint8_t>(values[i] >> (8 * b));
  return 1 + width * values.size();
}

bool BytePlaneReader::open(std::span<const uint8_t> column) {
  values_.clear();
  width_ = 0;
  at_ = 0;
  ok_ = true;
  if (column.empty() || column[0] > 8) return false;
  const size_t width = column[0];
  const size_t bytes = column.size() - 1;
  if (width == 0) return bytes == 0;
  if (bytes % width != 0) return false;
  width_ = width;
  const size_t count = bytes / width;
  values_.resize(count);
  uint64_t *const values = values_.data();
  const uint8_t *plane = column.data() + 1;
  for (size_t i = 0; i < count; ++i)
    values[i] = plane[i];
  for (size_t b = 1; b < width; ++b) {
    plane += count;
    for (size_t i = 0; i < count; ++i)
      values[i] |= uint64_t{plane[i]} << (8 * b);
  }
  return true;
}

} // namespace prof::report
