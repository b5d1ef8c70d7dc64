#include "core/capture/flight_recorder.hpp"

#include <algorithm>
#include <vector>

namespace prof::core {

void EventRing::add(const prof_event *events, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    events_.push_back(events[i]);
    newest_ns_ = std::max(newest_ns_, events[i].ts);
  }
  const size_t most = bound_.bytes ? std::max<uint64_t>(bound_.bytes / sizeof(prof_event), 1) : 0;
  while (most && events_.size() > most) {
    events_.pop_front();
    ++forgotten_;
  }
  // By time: events arrive nearly in order; the oldest in arrival go first.
  while (bound_.ns && !events_.empty() && events_.front().ts + bound_.ns < newest_ns_) {
    events_.pop_front();
    ++forgotten_;
  }
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
}

FlightRecorderOutput::FlightRecorderOutput(FlightBound bound, OpenReport open_report)
    : ring_sink_(bound), open_report_(std::move(open_report)) {}

std::string FlightRecorderOutput::dump(const Catalog &catalog, const CaptureEnd &end,
                                       std::string *path) {
  const auto &kept = ring_sink_.ring.events();
  std::vector<prof_event> events(kept.begin(), kept.end());
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
