#include "core/capture/flight_recorder.hpp"

#include <algorithm>
#include <vector>

namespace prof::core {

EventRing::EventRing(FlightBound bound)
    : bound_(bound),
      most_(bound.bytes ? std::max<uint64_t>(bound.bytes / sizeof(prof_event), 1) : 0) {}

void EventRing::drop_oldest() {
  head_ = (head_ + 1) % slots_.size();
  --size_;
  ++forgotten_;
}

void EventRing::push(const prof_event &event) {
  if (most_ != 0 && size_ == most_) drop_oldest();
  if (size_ == slots_.size()) { // grows by doubling, up to the byte bound
    size_t capacity = std::max<size_t>(slots_.size() * 2, 1024);
    if (most_ != 0) capacity = std::min(capacity, most_);
    std::vector<prof_event> grown = oldest_first();
    grown.resize(capacity);
    slots_ = std::move(grown);
    head_ = 0;
  }
  slots_[(head_ + size_) % slots_.size()] = event;
  ++size_;
}

void EventRing::add(const prof_event *events, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    push(events[i]);
    newest_ns_ = std::max(newest_ns_, events[i].ts);
  }
  // By time: events arrive nearly in order; the oldest in arrival go first.
  while (bound_.ns && size_ != 0 && slots_[head_].ts + bound_.ns < newest_ns_)
    drop_oldest();
}

std::vector<prof_event> EventRing::oldest_first() const {
  std::vector<prof_event> out;
  out.reserve(size_);
  for (size_t i = 0; i < size_; ++i)
    out.push_back(slots_[(head_ + i) % slots_.size()]);
  return out;
}

void FlightRecorderOutput::RingSink::consume(const prof_event *events, size_t count) {
  size_t run = 0; // events of the ring not yet added
  for (size_t i = 0; i < count; ++i) {
    if (events[i].type != PROF_EVENT_SLICE || (events[i].flags & PROF_SLICE_UNFINISHED) == 0)
      continue;
    ring.add(events + run, i - run);
    unfinished.push_back(events[i]);
    run = i + 1;
  }
  ring.add(events + run, count - run);
  if (sweeper) sweeper->maybe_sweep();
}

FlightRecorderOutput::FlightRecorderOutput(FlightBound bound, OpenReport open_report,
                                           ArgsSweeper *sweeper)
    : ring_sink_(bound, sweeper), open_report_(std::move(open_report)) {
  if (sweeper) sweeper->add(this);
}

FlightRecorderOutput::~FlightRecorderOutput() {
  if (ring_sink_.sweeper) ring_sink_.sweeper->remove(this);
}

void FlightRecorderOutput::for_each_kept(
    const std::function<void(const prof_event &)> &visit) const {
  ring_sink_.ring.for_each(visit);
  for (const prof_event &e : ring_sink_.unfinished)
    visit(e);
}

std::string FlightRecorderOutput::dump(const Catalog &catalog, const CaptureEnd &end,
                                       std::string *path) {
  std::vector<prof_event> events = ring_sink_.ring.oldest_first();
  events.insert(events.end(), ring_sink_.unfinished.begin(), ring_sink_.unfinished.end());
  ring_sink_.unfinished.clear(); // what was open then is not open at the next dump
  std::stable_sort(events.begin(), events.end(),
                   [](const prof_event &a, const prof_event &b) { return a.ts < b.ts; });
  const uint64_t start = events.empty() ? end.end_ns : events.front().ts;
  std::string error;
  std::unique_ptr<WindowOutput> report = open_report_(++dumps_, start, &error);
  if (!report) return error;
  EventSink &sink = report->sink();
  sink.catalog_grew(catalog, CatalogMark{}, mark_of(catalog));
  if (!events.empty()) sink.consume(events.data(), events.size());
  CaptureEnd at_dump = end;
  at_dump.events = events.size();
  error = report->finish(catalog, at_dump);
  if (!error.empty()) return error;
  written_ = report->description();
  *path = written_;
  return "";
}

std::string FlightRecorderOutput::finish(const Catalog &catalog, const CaptureEnd &end) {
  if (end.exit_signal == 0 && end.exit_code == 0) { // nothing went wrong
    written_.clear();                               // the dumps were announced when written
    return "";
  }
  std::string path;
  return dump(catalog, end, &path);
}

} // namespace prof::core
