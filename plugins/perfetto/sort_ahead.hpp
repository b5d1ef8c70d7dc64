// SortAhead: copies and orders the next batch on a second thread while the
// exporter writes the one before it. The exporter may not keep the caller's
// events past consume(), so the thread copies them first and consume() waits
// for that copy (wait_copied()) before it returns. Memory stays bounded by two
// batches.
#ifndef PROF_PLUGINS_PERFETTO_SORT_AHEAD_HPP
#define PROF_PLUGINS_PERFETTO_SORT_AHEAD_HPP

#include "batch_order.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace prof::perfetto {

class SortAhead {
public:
  /// A batch copied out of the caller's buffer, its packets in writing order.
  struct Batch {
    std::vector<prof_event> events;
    BatchOrder order;
    std::span<const uint64_t> packets;
  };

  SortAhead();
  SortAhead(const SortAhead &) = delete;
  SortAhead &operator=(const SortAhead &) = delete;
  ~SortAhead();

  /// Starts copying and ordering `events` (count <= BatchOrder::kMaxBatch).
  /// Returns the batch pushed before, ordered, or null when there is none;
  /// it stays valid until the next call.
  Batch *push(const prof_event *events, size_t count);
  /// Waits until the thread has copied the events last pushed.
  void wait_copied();
  /// The last batch pushed, ordered, or null when there is none.
  Batch *finish();

private:
  enum class Stage { idle, copying, sorting, sorted };

  void run();

  Batch batches_[2];
  size_t next_ = 0;          // the slot push() fills next
  Batch *current_ = nullptr; // the batch on the thread
  const prof_event *source_ = nullptr;
  size_t count_ = 0;
  Stage stage_ = Stage::idle;
  bool stop_ = false;
  std::exception_ptr error_; // what the thread threw, rethrown by finish()
  std::mutex mutex_;
  std::condition_variable changed_;
  std::thread thread_; // last: starts once the members above exist
};

} // namespace prof::perfetto

#endif
