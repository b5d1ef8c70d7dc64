// The control protocol: one request and one response per connection, each a
// frame of a 4-byte little-endian length and at most kMaxFrame bytes of
// text. A request is a command word and an optional argument; a response
// starts with "ok" or "error". Anything else ends the connection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::control {

inline constexpr size_t kMaxFrame = 4096;

enum class Command { Start, Stop, Suspend, Resume, Cancel, Status, Shutdown, Dump };

struct Request {
  Command command;
  std::string argument; ///< e.g. an output name for start; may be empty
  /// A descriptor passed with the request (SCM_RIGHTS), -1 for none: prof's
  /// shared-memory region for an agent. The server closes it once answered.
  int fd = -1;
};

/// The frame carrying `text` (at most kMaxFrame bytes, else empty).
std::vector<uint8_t> encode_frame(std::string_view text);

/// Collects bytes until a whole frame is there.
class FrameReader {
public:
  enum class State { NeedMore, Complete, Malformed };
  /// Adds received bytes; Malformed once the length exceeds kMaxFrame or
  /// bytes follow the frame.
  State add(const uint8_t *data, size_t size);
  const std::string &text() const { return text_; }
  /// Whether any byte arrived (a connection that sends none is a liveness probe).
  bool started() const { return !bytes_.empty(); }

private:
  std::vector<uint8_t> bytes_;
  std::string text_;
  State state_ = State::NeedMore;
};

/// Parses "start [ARG]", "stop", ...; nullopt for anything else (an unknown
/// word, control characters).
std::optional<Request> parse_request(std::string_view text);
/// The request's text.
std::string request_text(const Request &request);
/// The command's word ("start").
std::string_view command_name(Command command);

} // namespace prof::control
