#include "proto_writer.hpp"

#include <algorithm>

namespace prof::perfetto {

void ProtoWriter::grow(size_t extra) {
  const size_t used = size();
  buffer_.resize(std::max(buffer_.size() * 2, used + extra + 64));
  cur_ = buffer_.data() + used;
  limit_ = buffer_.data() + buffer_.size();
}

void ProtoWriter::patch_long_length(size_t start, size_t length) {
  // The body sits at start+1; a length of n bytes needs n-1 more bytes.
  const size_t extra = varint_size(length) - 1;
  reserve(extra);
  uint8_t *body = buffer_.data() + start + 1;
  std::memmove(body + extra, body, length);
  cur_ += extra;
  uint8_t *out = buffer_.data() + start;
  uint64_t value = length;
  while (value >= 0x80) {
    *out++ = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  *out = static_cast<uint8_t>(value);
}

} // namespace prof::perfetto
