// BackgroundWriter: writes an exporter's output to its OutputFile on a second
// thread, so that encoding packets and the write system calls (copying into
// the page cache, starting writeback) overlap. Blocks move by swapping
// ProtoWriter buffers, never by copying; at most kBlocks wait, so memory stays
// bounded and a slow disk slows the exporter down instead of filling memory.
#ifndef PROF_PLUGINS_PERFETTO_BACKGROUND_WRITER_HPP
#define PROF_PLUGINS_PERFETTO_BACKGROUND_WRITER_HPP

#include "proto_writer.hpp"
#include <prof/output/output_file.hpp>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace prof::perfetto {

class BackgroundWriter {
public:
  /// Writes to `file`, which must stay open until finish() or destruction.
  explicit BackgroundWriter(output::OutputFile &file);
  BackgroundWriter(const BackgroundWriter &) = delete;
  BackgroundWriter &operator=(const BackgroundWriter &) = delete;
  /// Stops at once: blocks not yet written are dropped.
  ~BackgroundWriter();

  /// Queues the bytes of `out` to be written and leaves `out` empty. False
  /// when an earlier write failed (the file's error() says why).
  bool write(ProtoWriter &out);
  /// Waits until every queued block is written; false when one failed.
  bool finish();

private:
  static constexpr size_t kBlocks = 4;

  void run();

  output::OutputFile &file_;
  ProtoWriter blocks_[kBlocks];
  size_t head_ = 0;   // blocks_[head_] is written next
  size_t queued_ = 0; // blocks waiting or being written
  bool failed_ = false;
  bool stop_ = false;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::thread thread_; // last: starts once the members above exist
};

} // namespace prof::perfetto

#endif
