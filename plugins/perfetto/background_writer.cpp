#include "background_writer.hpp"

namespace prof::perfetto {

BackgroundWriter::BackgroundWriter(output::OutputFile &file)
    : file_(file), thread_([this] { run(); }) {}

BackgroundWriter::~BackgroundWriter() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

bool BackgroundWriter::write(ProtoWriter &out) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queued_ < kBlocks || failed_; });
  if (failed_) return false;
  ProtoWriter &block = blocks_[(head_ + queued_) % kBlocks];
  block.swap(out); // `out` continues in the block's emptied buffer
  ++queued_;
  lock.unlock();
  changed_.notify_all();
  return true;
}

bool BackgroundWriter::finish() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queued_ == 0; });
  return !failed_;
}

void BackgroundWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return queued_ > 0 || stop_; });
    if (stop_) return;
    ProtoWriter &block = blocks_[head_];
    const bool skip = failed_; // after a failure, queued blocks are dropped
    lock.unlock();
    const bool ok = skip || file_.write(block.data(), block.size());
    block.clear();
    lock.lock();
    failed_ = failed_ || !ok;
    head_ = (head_ + 1) % kBlocks;
    --queued_;
    changed_.notify_all();
  }
}

} // namespace prof::perfetto
