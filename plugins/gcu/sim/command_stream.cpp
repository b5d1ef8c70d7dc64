#include "command_stream.hpp"

namespace prof::gcusim {

CommandStream::~CommandStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    work_.notify_one();
  }
  if (worker_.joinable()) worker_.join();
}

void CommandStream::enqueue(std::function<void()> command) {
  std::lock_guard lock(mutex_);
  queue_.push_back(std::move(command));
  ++enqueued_;
  if (!worker_.joinable()) worker_ = std::thread([this] { run(); });
  work_.notify_one();
}

void CommandStream::synchronize() {
  std::unique_lock lock(mutex_);
  uint64_t target = enqueued_;
  progress_.wait(lock, [&] { return completed_ >= target; });
}

bool CommandStream::synchronize_until(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  uint64_t target = enqueued_;
  return progress_.wait_until(lock, deadline, [&] { return completed_ >= target; });
}

void CommandStream::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return; // stopping, and everything has run
    std::function<void()> command = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    if (!halted_.load()) command();
    command = nullptr; // release what it holds before reporting progress
    lock.lock();
    ++completed_;
    progress_.notify_all();
  }
}

} // namespace prof::gcusim
