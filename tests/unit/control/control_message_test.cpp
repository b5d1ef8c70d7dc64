#include "core/control/control_message.hpp"

#include <gtest/gtest.h>

namespace prof::control {
namespace {

FrameReader::State feed(FrameReader &reader, const std::vector<uint8_t> &bytes) {
  return reader.add(bytes.data(), bytes.size());
}

TEST(ControlMessage, FramesRoundTripWhateverTheSplit) {
  const std::vector<uint8_t> frame = encode_frame("stop");
  ASSERT_EQ(frame.size(), 8u);
  for (size_t split = 0; split <= frame.size(); ++split) {
    FrameReader reader;
    EXPECT_EQ(reader.add(frame.data(), split),
              split == frame.size() ? FrameReader::State::Complete : FrameReader::State::NeedMore);
    if (split < frame.size()) {
      EXPECT_EQ(reader.add(frame.data() + split, frame.size() - split), FrameReader::State::Complete);
    }
    EXPECT_EQ(reader.text(), "stop");
  }
}

TEST(ControlMessage, OversizedAndTrailingBytesAreMalformed) {
  EXPECT_TRUE(encode_frame(std::string(kMaxFrame + 1, 'x')).empty());
  FrameReader big;
  EXPECT_EQ(feed(big, {0xff, 0xff, 0xff, 0x7f}), FrameReader::State::Malformed);
  FrameReader just_over;
  const uint32_t n = kMaxFrame + 1;
  EXPECT_EQ(feed(just_over, {uint8_t(n), uint8_t(n >> 8), 0, 0}), FrameReader::State::Malformed);
  FrameReader trailing;
  std::vector<uint8_t> frame = encode_frame("status");
  frame.push_back('!');
  EXPECT_EQ(feed(trailing, frame), FrameReader::State::Malformed);
  FrameReader second;
  EXPECT_EQ(feed(second, encode_frame("status")), FrameReader::State::Complete);
  EXPECT_EQ(feed(second, encode_frame("stop")), FrameReader::State::Malformed);
}

TEST(ControlMessage, RequestsParseAndPrint) {
  for (const char *text : {"start", "stop", "suspend", "resume", "cancel", "status", "shutdown",
                           "start out-%p"}) {
    const auto request = parse_request(text);
    ASSERT_TRUE(request) << text;
    EXPECT_EQ(request_text(*request), text);
  }
  EXPECT_EQ(parse_request("start run2")->argument, "run2");
  for (const char *bad : {"", "START", "launch", "stop\n", "stop\x01", " stop"})
    EXPECT_FALSE(parse_request(bad)) << bad;
}

} // namespace
} // namespace prof::control
