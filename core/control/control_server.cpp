#include "core/control/control_server.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <stdexcept>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <pthread.h>
#include <unistd.h>

namespace prof::control {
namespace {

// A request must arrive whole within this; a peer that stalls is dropped.
constexpr int kRequestTimeoutMs = 1000;

sockaddr_un address_of(const std::filesystem::path &path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string text = path.string();
  if (text.size() >= sizeof address.sun_path)
    throw std::runtime_error("session socket path too long: " + text);
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  return address;
}

std::runtime_error failure(const std::string &what, const std::filesystem::path &path) {
  return std::runtime_error(what + " " + path.string() + ": " + std::strerror(errno));
}

bool send_all(int fd, const std::vector<uint8_t> &bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

} // namespace

bool socket_alive(const std::filesystem::path &socket_path) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const sockaddr_un address = address_of(socket_path);
  const bool alive = connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0;
  close(fd);
  return alive;
}

ControlServer::ControlServer(std::filesystem::path socket_path, Handler handler)
    : path_(std::move(socket_path)), handler_(std::move(handler)) {
  struct stat st {};
  if (lstat(path_.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode))
      throw std::runtime_error(path_.string() + " exists and is not a session socket: remove it");
    if (socket_alive(path_))
      throw std::runtime_error("a running session already answers on " + path_.string());
    unlink(path_.c_str()); // left by a session that is gone
  }
  // The socket is bound and listening under a name of this process's before
  // it takes its own: a client that finds the path can connect, and none
  // takes a socket not yet listening for one whose session is gone.
  const std::filesystem::path bound =
      path_.parent_path() / ("." + std::to_string(getpid()) + ".bind");
  const sockaddr_un address = address_of(bound);
  address_of(path_); // the final name must fit too
  unlink(bound.c_str());
  listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw failure("cannot create socket", path_);
  // The socket is made 0600 from the start: no moment when others may connect.
  const mode_t old_mask = umask(0177);
  const int bound_ok =
      bind(listen_fd_, reinterpret_cast<const sockaddr *>(&address), sizeof address);
  umask(old_mask);
  // link() never replaces: of two sessions started under one name, one wins.
  const bool listening = bound_ok == 0 && listen(listen_fd_, 8) == 0;
  const bool named = listening && link(bound.c_str(), path_.c_str()) == 0;
  const int error_number = errno;
  if (bound_ok == 0) unlink(bound.c_str());
  if (!named) {
    close(listen_fd_);
    if (listening && error_number == EEXIST)
      throw std::runtime_error("a running session already answers on " + path_.string());
    errno = error_number;
    throw failure("cannot listen on", path_);
  }
  wake_fd_ = eventfd(0, EFD_CLOEXEC);
  if (wake_fd_ < 0) {
    close(listen_fd_);
    unlink(path_.c_str());
    throw failure("cannot create the wake-up event of", path_);
  }
  thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "prof-control"); // as top and /proc show it
    run();
  });
}

ControlServer::~ControlServer() {
  const uint64_t one = 1;
  if (write(wake_fd_, &one, sizeof one) < 0) {
  }
  if (thread_.joinable()) thread_.join();
  close(wake_fd_);
  close(listen_fd_);
  unlink(path_.c_str());
}

void ControlServer::run() {
  pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  for (;;) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents) return;
    if (!(fds[0].revents & POLLIN)) continue;
    const int connection = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) continue;
    serve(connection);
    close(connection);
  }
}

namespace {

/// The first descriptor a request passed; closed with it.
struct PassedDescriptor {
  int fd = -1;
  PassedDescriptor() = default;
  PassedDescriptor(const PassedDescriptor &) = delete;
  PassedDescriptor &operator=(const PassedDescriptor &) = delete;
  ~PassedDescriptor() {
    if (fd >= 0) close(fd);
  }
};

/// recv() that also takes descriptors passed with the bytes: the first is
/// kept in `passed`, any other closed at once.
ssize_t receive(int connection, uint8_t *buffer, size_t size, PassedDescriptor &passed) {
  iovec data{buffer, size};
  alignas(cmsghdr) char control[CMSG_SPACE(4 * sizeof(int))];
  msghdr message{};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  const ssize_t n = recvmsg(connection, &message, MSG_CMSG_CLOEXEC);
  if (n < 0) return n;
  for (cmsghdr *c = CMSG_FIRSTHDR(&message); c != nullptr; c = CMSG_NXTHDR(&message, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      if (passed.fd < 0)
        passed.fd = fd;
      else
        close(fd);
    }
  }
  return n;
}

} // namespace

void ControlServer::serve(int connection) {
  ucred peer{};
  socklen_t size = sizeof peer;
  if (getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0 || peer.uid != getuid()) {
    ++refused_;
    return;
  }
  FrameReader reader;
  uint8_t buffer[512];
  PassedDescriptor passed;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kRequestTimeoutMs);
  FrameReader::State state = FrameReader::State::NeedMore;
  while (state == FrameReader::State::NeedMore) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    pollfd fd{connection, POLLIN, 0};
    if (left <= 0 || poll(&fd, 1, static_cast<int>(left)) <= 0) break;
    const ssize_t n = receive(connection, buffer, sizeof buffer, passed);
    if (n <= 0) break; // closed before a whole request: a liveness probe, or a broken peer
    state = reader.add(buffer, static_cast<size_t>(n));
  }
  std::optional<Request> request =
      state == FrameReader::State::Complete ? parse_request(reader.text()) : std::nullopt;
  if (request) request->fd = passed.fd;
  if (!request) {
    if (reader.started()) ++refused_;
    if (state == FrameReader::State::Complete)
      send_all(connection, encode_frame("error not a control request"));
    return;
  }
  std::string response;
  try {
    response = handler_(*request);
  } catch (const std::exception &e) {
    response = std::string("error ") + e.what();
  }
  if (response.size() > kMaxFrame) response.resize(kMaxFrame);
  ++answered_; // before the answer leaves: a client that has it sees the count
  send_all(connection, encode_frame(response));
}

} // namespace prof::control
