#include "sort_ahead.hpp"

#include <utility>

namespace prof::perfetto {

SortAhead::SortAhead() : thread_([this] { run(); }) {}

SortAhead::~SortAhead() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

SortAhead::Batch *SortAhead::push(const prof_event *events, size_t count) {
  Batch *previous = finish();
  {
    std::lock_guard lock(mutex_);
    current_ = &batches_[next_];
    next_ ^= 1;
    source_ = events;
    count_ = count;
    stage_ = Stage::copying;
  }
  changed_.notify_all();
  return previous;
}

void SortAhead::wait_copied() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return stage_ != Stage::copying; });
}

SortAhead::Batch *SortAhead::finish() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return stage_ == Stage::idle || stage_ == Stage::sorted; });
  stage_ = Stage::idle;
  Batch *batch = std::exchange(current_, nullptr);
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return batch;
}

void SortAhead::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stop_ || stage_ == Stage::copying; });
    if (stop_) return;
    Batch &batch = *current_;
    lock.unlock();
    std::exception_ptr error;
    try {
      batch.events.assign(source_, source_ + count_);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    stage_ = Stage::sorting;
    lock.unlock();
    changed_.notify_all();
    try {
      if (!error) batch.packets = batch.order.order(batch.events.data(), batch.events.size());
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    error_ = error;
    stage_ = Stage::sorted;
    changed_.notify_all();
  }
}

} // namespace prof::perfetto
