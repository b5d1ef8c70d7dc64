#include "ring_reader.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>

namespace prof::cpu_perf {

void RingReader::start(std::vector<int> fds, std::vector<PerfRing *> rings,
                       const RecordLayout &layout) {
  stop();
  fds_ = std::move(fds);
  rings_ = std::move(rings);
  layout_ = layout;
  stores_.resize(rings_.size());
  // A store never needs more than the limit plus one ring's bytes: reserved
  // once, it is never copied to grow, and only what is written is resident.
  room_ = 0;
  for (const PerfRing *ring : rings_)
    room_ = std::max(room_, ring->data_size());
  room_ = limit_ == SIZE_MAX ? room_ : room_ + limit_;
  for (auto &store : stores_)
    store.reserve(room_);
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
  drain_all(true);
  rings_.clear();
  fds_.clear();
}

void RingReader::clear() {
  std::lock_guard lock(mutex_);
  stores_.clear();
  stores_.resize(rings_.size());
  held_ = 0;
}

uint64_t RingReader::take(std::vector<std::vector<uint8_t>> &stores) {
  for (auto &store : stores)
    store.clear();
  std::lock_guard lock(mutex_);
  stores.resize(stores_.size());
  stores.swap(stores_);
  for (auto &store : stores_)
    store.reserve(room_);
  held_ = 0;
  return drained_at_;
}

bool RingReader::drain_all(bool whole) {
  std::lock_guard lock(mutex_);
  if (!whole && held_ >= limit_) return true;
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  drained_at_ =
      static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec);
  for (size_t i = 0; i < rings_.size(); ++i) {
    std::vector<uint8_t> &store = stores_[i];
    const size_t before = store.size();
    const size_t copied = rings_[i]->drain(store);
    store.resize(before + trim_stack_copies({store.data() + before, copied}, layout_));
    held_ += store.size() - before;
  }
  return held_ >= wake_;
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
    if (drain_all(false) && on_filled_) on_filled_();
  }
}

} // namespace prof::cpu_perf
