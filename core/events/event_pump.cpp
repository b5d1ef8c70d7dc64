#include "core/events/event_pump.hpp"

#include "core/catalog/args_folding.hpp"
#include "core/runtime/session_clock.hpp"

namespace prof::core {

EventPump::EventPump(EventSource &source, Catalog &catalog, std::vector<EventSink *> sinks,
                     std::chrono::microseconds tick, unsigned full_every)
    : sources_{&source}, catalog_(catalog), sinks_(std::move(sinks)), tick_(tick),
      full_every_(full_every ? full_every : 1) {}

EventPump::~EventPump() { stop(); }

void EventPump::start() {
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void EventPump::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (before_drain_) before_drain_->before_drain();
  while (drain_now(true) > 0) {
  }
  if (before_drain_) before_drain_->before_drain();
  publish_catalog(); // what was declared after the last event (a rename) reaches the sinks
}

void EventPump::run() {
  unsigned ticks = 0;
  auto last_calibration = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, tick_);
    lock.unlock();
    const bool all = ++ticks % full_every_ == 0;
    if (before_drain_) before_drain_->before_drain();
    drain_now(all);
    auto now = std::chrono::steady_clock::now();
    if (now - last_calibration > std::chrono::milliseconds(100)) {
      catalog_.clocks.calibrate_tsc(); // follows TSC drift over long captures
      last_calibration = now;
    }
    lock.lock();
  }
}

size_t EventPump::drain_now(bool all) {
  size_t total = 0;
  for (EventSource *source : sources_)
    total += source->drain([this](prof_event *events, size_t count) { deliver(events, count); }, all);
  return total;
}

CaptureEnd EventPump::totals() const {
  CaptureEnd end;
  end.end_ns = session_now_ns();
  end.events = events();
  for (const EventSource *source : sources_) {
    end.dropped += source->dropped();
    for (const RingDrops &drops : source->drops())
      end.drops.push_back(drops);
  }
  return end;
}

void EventPump::publish_catalog() {
  const CatalogMark now = mark_of(catalog_);
  if (now == seen_) return;
  for (size_t id = track_clocks_.size(); id < now.tracks; ++id) {
    const TrackEntry *track = catalog_.tracks.find(static_cast<prof_track_id>(id));
    track_clocks_.push_back(track ? track->desc.clock : PROF_CLOCK_SESSION);
  }
  for (EventSink *sink : sinks_) sink->catalog_grew(catalog_, seen_, now);
  seen_ = now;
}

void EventPump::deliver(prof_event *events, size_t count) {
  count = fold_args(events, count, catalog_.args);
  if (count == 0) return;
  if (before_drain_) before_drain_->before_deliver();
  // Ids in these events were handed out before the events were emitted, so
  // publishing the catalog now covers them.
  publish_catalog();
  for (size_t i = 0; i < count; ++i) {
    prof_event &e = events[i];
    const prof_clock_id clock =
        e.track < track_clocks_.size() ? track_clocks_[e.track] : PROF_CLOCK_SESSION;
    if (clock == PROF_CLOCK_SESSION) continue;
    const uint64_t begin = catalog_.clocks.to_session_ns(clock, e.ts);
    if (e.type == PROF_EVENT_SLICE) {
      const uint64_t end = catalog_.clocks.to_session_ns(clock, e.ts + e.duration);
      e.duration = end > begin ? end - begin : 0;
    }
    e.ts = begin;
  }
  for (EventSink *sink : sinks_) sink->consume(events, count);
  events_.fetch_add(count, std::memory_order_relaxed);
}

} // namespace prof::core
