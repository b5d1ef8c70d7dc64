// A session's control socket: answers one request per connection from
// peers of this user only (SO_PEERCRED), one connection at a time on its
// own thread. A malformed, oversized or slow request closes that
// connection and nothing else.
#pragma once

#include "core/control/control_message.hpp"

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

namespace prof::control {

class ControlServer {
public:
  /// Returns the response text: "ok ..." or "error ...".
  using Handler = std::function<std::string(const Request &)>;

  /// Listens on `socket_path` (mode 0600). A socket left there by a session
  /// that is gone is replaced; one a live session answers on is an error
  /// (std::runtime_error naming the path), as is any other file there.
  ControlServer(std::filesystem::path socket_path, Handler handler);
  /// Stops answering and removes the socket.
  ~ControlServer();
  ControlServer(const ControlServer &) = delete;
  ControlServer &operator=(const ControlServer &) = delete;

  const std::filesystem::path &path() const { return path_; }
  /// Connections closed unanswered: another user, or a malformed request.
  uint64_t refused() const { return refused_.load(); }
  uint64_t answered() const { return answered_.load(); }

private:
  void run();
  void serve(int connection);

  std::filesystem::path path_;
  Handler handler_;
  int listen_fd_ = -1;
  int wake_fd_ = -1;
  std::atomic<uint64_t> refused_{0};
  std::atomic<uint64_t> answered_{0};
  std::thread thread_;
};

/// Whether a server answers on `socket_path` (a connection is accepted).
bool socket_alive(const std::filesystem::path &socket_path);

} // namespace prof::control
