#include "core/control/control_message.hpp"

#include <array>

namespace prof::control {
namespace {

constexpr std::array<std::pair<Command, std::string_view>, 8> kCommands = {{
    {Command::Start, "start"},
    {Command::Stop, "stop"},
    {Command::Suspend, "suspend"},
    {Command::Resume, "resume"},
    {Command::Cancel, "cancel"},
    {Command::Status, "status"},
    {Command::Shutdown, "shutdown"},
    {Command::Dump, "dump"},
}};

} // namespace

std::vector<uint8_t> encode_frame(std::string_view text) {
  if (text.size() > kMaxFrame) return {};
  const auto n = static_cast<uint32_t>(text.size());
  std::vector<uint8_t> frame{static_cast<uint8_t>(n), static_cast<uint8_t>(n >> 8),
                             static_cast<uint8_t>(n >> 16), static_cast<uint8_t>(n >> 24)};
  frame.insert(frame.end(), text.begin(), text.end());
  return frame;
}

FrameReader::State FrameReader::add(const uint8_t *data, size_t size) {
  if (state_ != State::NeedMore) {
    if (size > 0) state_ = State::Malformed; // one frame per connection
    return state_;
  }
  bytes_.insert(bytes_.end(), data, data + size);
  if (bytes_.size() < 4) return state_;
  const uint32_t length = bytes_[0] | bytes_[1] << 8 | bytes_[2] << 16 | uint32_t{bytes_[3]} << 24;
  if (length > kMaxFrame || bytes_.size() > 4 + size_t{length}) return state_ = State::Malformed;
  if (bytes_.size() < 4 + size_t{length}) return state_;
  text_.assign(bytes_.begin() + 4, bytes_.end());
  return state_ = State::Complete;
}

std::optional<Request> parse_request(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return std::nullopt;
  const size_t space = text.find(' ');
  const std::string_view word = text.substr(0, space);
  const std::string_view argument = space == std::string_view::npos ? "" : text.substr(space + 1);
  for (const auto &[command, name] : kCommands)
    if (word == name) return Request{command, std::string(argument)};
  return std::nullopt;
}

std::string request_text(const Request &request) {
  std::string text(command_name(request.command));
  if (!request.argument.empty()) text += " " + request.argument;
  return text;
}

std::string_view command_name(Command command) {
  for (const auto &[c, name] : kCommands)
    if (c == command) return name;
  return "";
}

} // namespace prof::control
