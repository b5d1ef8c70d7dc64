#include "ring_reader.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace prof::cpu_perf {

void RingReader::start(std::vector<int> fds, std::vector<PerfRing *> rings) {
  stop();
  fds_ = std::move(fds);
  rings_ = std::move(rings);
  stores_.resize(rings_.size());
  stopping_ = false;
  wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  thread_ = std::thread([this] { run(); });
}

void RingReader::stop() {
  if (thread_.joinable()) {
    stopping_ = true;
    const uint64_t one = 1;
    if (write(wake_fd_, &one, sizeof one) < 0) { /* the poll timeout ends it too */ }
    thread_.join();
  }
  if (wake_fd_ >= 0) {
    close(wake_fd_);
    wake_fd_ = -1;
  }
  drain_all();
  rings_.clear();
  fds_.clear();
}

void RingReader::clear() {
  std::lock_guard lock(mutex_);
  stores_.clear();
  stores_.resize(rings_.size());
}

void RingReader::drain_all() {
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < rings_.size(); ++i) rings_[i]->drain(stores_[i]);
}

void RingReader::run() {
  std::vector<pollfd> polls;
  for (int fd : fds_) polls.push_back({fd, POLLIN, 0});
  polls.push_back({wake_fd_, POLLIN, 0});
  while (!stopping_) {
    poll(polls.data(), polls.size(), 100);
    // A per-task event hangs up when its task exits: stop polling it so the
    // loop does not spin, but keep draining its ring.
    for (size_t i = 0; i + 1 < polls.size(); ++i)
      if (polls[i].revents & (POLLHUP | POLLERR | POLLNVAL)) polls[i].fd = -1;
    drain_all();
  }
}

} // namespace prof::cpu_perf
