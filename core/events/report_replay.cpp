#include "core/events/report_replay.hpp"

#include "core/report/chunk.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace prof::core {

namespace {

// Decodes a report's EVENTS chunks on a second thread, a few chunks ahead of
// the thread that consumes them, so that decoding and exporting overlap.
// Memory stays bounded: kSlots decoded chunks at most.
class ChunkDecoder {
public:
  explicit ChunkDecoder(const report::ReportReader &reader)
      : reader_(reader), chunks_(reader.event_chunks()), thread_([this] { decode_all(); }) {}
  ChunkDecoder(const ChunkDecoder &) = delete;
  ChunkDecoder &operator=(const ChunkDecoder &) = delete;
  ~ChunkDecoder() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    freed_.notify_one();
    thread_.join();
  }

  /// Calls `visit` with each chunk's events, in file order; chunks that fail
  /// to decode go to `malformed` (their file offsets), empty ones are skipped.
  void for_each(const std::function<void(const prof_event *, size_t)> &visit,
                std::vector<uint64_t> &malformed) {
    for (size_t next = 0; next < chunks_.size(); ++next) {
      {
        std::unique_lock lock(mutex_);
        decoded_.wait(lock, [&] { return done_ > next || error_; });
        if (error_) std::rethrow_exception(error_);
      }
      const Slot &slot = slots_[next % kSlots];
      if (!slot.ok) malformed.push_back(chunks_[next].payload_offset - report::kChunkHeaderSize);
      else if (!slot.events.empty()) visit(slot.events.data(), slot.events.size());
      {
        std::lock_guard lock(mutex_);
        consumed_ = next + 1;
      }
      freed_.notify_one();
    }
  }

private:
  static constexpr size_t kSlots = 4;
  struct Slot {
    std::vector<prof_event> events;
    bool ok = false;
  };

  void decode_all() {
    try {
      for (size_t next = 0; next < chunks_.size(); ++next) {
        {
          std::unique_lock lock(mutex_);
          freed_.wait(lock, [&] { return stop_ || next - consumed_ < kSlots; });
          if (stop_) return;
        }
        Slot &slot = slots_[next % kSlots];
        slot.ok = reader_.decode_events(chunks_[next], slot.events);
        {
          std::lock_guard lock(mutex_);
          done_ = next + 1;
        }
        decoded_.notify_one();
      }
    } catch (...) {
      {
        std::lock_guard lock(mutex_);
        error_ = std::current_exception();
      }
      decoded_.notify_one();
    }
  }

  const report::ReportReader &reader_;
  const std::vector<report::ReportReader::EventChunk> &chunks_;
  Slot slots_[kSlots];
  std::mutex mutex_;
  std::condition_variable decoded_, freed_;
  size_t done_ = 0;     // chunks decoded
  size_t consumed_ = 0; // chunks visited
  bool stop_ = false;
  std::exception_ptr error_;
  std::thread thread_; // last: starts once the members above exist
};

} // namespace

void load_catalog(const report::ReportReader &reader, Catalog &catalog) {
  const auto &strings = reader.strings();
  for (size_t id = 1; id < strings.size(); ++id)
    catalog.strings.restore(static_cast<prof_string_id>(id), strings[id]);
  for (const auto &[id, track] : reader.tracks()) {
    prof_track_desc desc{sizeof(prof_track_desc),
                         track.kind,
                         track.parent,
                         track.name.c_str(),
                         track.pid,
                         track.tid,
                         track.index,
                         track.unit.empty() ? nullptr : track.unit.c_str(),
                         track.clock,
                         track.flags};
    catalog.tracks.restore(id, desc);
  }
  for (const auto &[id, stack] : reader.stacks()) {
    if (id > 0) catalog.stacks.restore(id, stack.frames);
  }
  for (const auto &[id, set] : reader.args())
    catalog.args.restore(id, set);
}

CaptureEnd capture_end_of(const report::ReportReader &reader) {
  CaptureEnd end;
  end.events = reader.event_count();
  end.dropped = reader.total_dropped();
  for (const auto &[ring, drop] : reader.drops()) end.drops.push_back({ring, drop.tid, drop.dropped});
  if (const auto &footer = reader.footer()) {
    end.end_ns = footer->end_ns;
    end.exit_code = footer->exit_status;
    end.exit_signal = footer->killed_by_signal ? footer->signal : 0;
  }
  return end;
}

std::vector<uint64_t> replay(const report::ReportReader &reader, const Catalog &catalog,
            const std::vector<EventSink *> &sinks,
            const std::function<void(uint64_t, uint64_t)> &progress) {
  const CatalogMark now = mark_of(catalog);
  for (EventSink *sink : sinks) sink->catalog_grew(catalog, CatalogMark{}, now);
  const uint64_t total = reader.event_count();
  uint64_t done = 0;
  const auto visit = [&](const prof_event *events, size_t count) {
    for (EventSink *sink : sinks) sink->consume(events, count);
    done += count;
    if (progress) progress(done, total);
  };
  std::vector<uint64_t> malformed;
  if (reader.event_chunks().size() > 1 && std::thread::hardware_concurrency() > 1) {
    ChunkDecoder(reader).for_each(visit, malformed);
  } else {
    std::vector<prof_event> batch;
    for (const auto &chunk : reader.event_chunks()) {
      if (!reader.decode_events(chunk, batch))
        malformed.push_back(chunk.payload_offset - report::kChunkHeaderSize);
      else if (!batch.empty())
        visit(batch.data(), batch.size());
    }
  }
  const CaptureEnd end = capture_end_of(reader);
  for (EventSink *sink : sinks) sink->finish(catalog, end);
  return malformed;
}

} // namespace prof::core
