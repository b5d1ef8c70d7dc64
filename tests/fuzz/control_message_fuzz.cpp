// Fuzzes the control protocol as a session reads it: bytes arrive in pieces
// of the sizes the first input bytes give, FrameReader collects one frame,
// parse_request reads it. A parsed request must read back the same from its
// own text, and a frame never exceeds kMaxFrame.
#include "core/control/control_message.hpp"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace prof::control;
  if (size < 2) return 0;
  // Two bytes of piece sizes, then the stream.
  const size_t pieces[2] = {size_t{data[0]} + 1, size_t{data[1]} + 1};
  data += 2;
  size -= 2;
  FrameReader reader;
  FrameReader::State state = FrameReader::State::NeedMore;
  for (size_t at = 0, n = 0; at < size; ++n) {
    const size_t piece = std::min(pieces[n % 2], size - at);
    state = reader.add(data + at, piece);
    at += piece;
  }
  if (state != FrameReader::State::Complete) return 0;
  if (reader.text().size() > kMaxFrame) std::abort();
  const auto request = parse_request(reader.text());
  if (!request) return 0;
  const auto again = parse_request(request_text(*request));
  if (!again || again->command != request->command || again->argument != request->argument)
    std::abort();
  if (encode_frame(request_text(*request)).size() > 4 + kMaxFrame) std::abort();
  return 0;
}
