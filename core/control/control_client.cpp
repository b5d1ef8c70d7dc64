#include "core/control/control_client.hpp"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace prof::control {
namespace {

/// Sends `frame` in one message, with `passed` (when not -1) beside it.
ssize_t send_frame(int socket_fd, const std::vector<uint8_t> &frame, int passed) {
  if (passed < 0) return send(socket_fd, frame.data(), frame.size(), MSG_NOSIGNAL);
  iovec data{const_cast<uint8_t *>(frame.data()), frame.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr message{};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  cmsghdr *c = CMSG_FIRSTHDR(&message);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &passed, sizeof passed);
  return sendmsg(socket_fd, &message, MSG_NOSIGNAL);
}

} // namespace

std::string send_request(const std::filesystem::path &socket_path, const Request &request,
                         std::chrono::milliseconds timeout) {
  const std::string where = "session socket " + socket_path.string();
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string text = socket_path.string();
  if (text.size() >= sizeof address.sun_path) throw std::runtime_error(where + ": path too long");
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(where + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  if (connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0)
    throw std::runtime_error(where + ": no session answers (" + std::strerror(errno) + ")");
  const std::vector<uint8_t> frame = encode_frame(request_text(request));
  if (frame.empty() || send_frame(fd, frame, request.fd) != static_cast<ssize_t>(frame.size()))
    throw std::runtime_error(where + ": cannot send the request");
  FrameReader reader;
  uint8_t buffer[512];
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    pollfd p{fd, POLLIN, 0};
    if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0)
      throw std::runtime_error(where + ": no answer within " + std::to_string(timeout.count()) +
                               " ms");
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) throw std::runtime_error(where + ": the session closed the connection unanswered");
    switch (reader.add(buffer, static_cast<size_t>(n))) {
    case FrameReader::State::Complete:
      return reader.text();
    case FrameReader::State::Malformed:
      throw std::runtime_error(where + ": malformed answer");
    case FrameReader::State::NeedMore:
      break;
    }
  }
}

} // namespace prof::control
