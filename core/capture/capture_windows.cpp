#include "core/capture/capture_windows.hpp"

#include <algorithm>

namespace prof::core {

bool CaptureWindows::Window::keeps(uint64_t ts) const {
  if (ts < facts.start_ns || ts >= end_ns || ts >= suspended_since) return false;
  for (const auto &[from, to] : cuts)
    if (ts >= from && ts < to) return false;
  return true;
}

CaptureWindows::CaptureWindows(const Catalog &catalog, std::vector<EventSink *> shared,
                               OpenOutput open, Finished finished, std::chrono::milliseconds grace)
    : catalog_(catalog), shared_(std::move(shared)), open_(std::move(open)),
      finished_(std::move(finished)), grace_(grace) {}

CaptureWindows::~CaptureWindows() = default;

WindowResult CaptureWindows::start(uint64_t at_ns, const std::string &output_name) {
  if (current_)
    return {false, "collection window " + std::to_string(current_->facts.index) +
                       " is already running; stop it first"};
  auto window = std::make_unique<Window>();
  window->facts = {next_index_, at_ns, output_name};
  // A window starts after the last one's end, so windows never overlap.
  for (const auto &old : closing_)
    window->facts.start_ns = std::max(window->facts.start_ns, old->end_ns);
  std::string error;
  window->output = open_(window->facts, &error);
  if (!window->output) return {false, error};
  ++next_index_;
  if (!(mark_ == CatalogMark{}))
    window->output->sink().catalog_grew(catalog_, CatalogMark{}, mark_);
  current_ = std::move(window);
  const std::string where = current_->output->description();
  return {true, "collection window " + std::to_string(current_->facts.index) + " started" +
                    (where.empty() ? "" : ", writing " + where)};
}

void CaptureWindows::start_earlier(uint64_t at_ns) {
  if (!current_ || at_ns >= current_->facts.start_ns) return;
  for (const auto &old : closing_)
    at_ns = std::max(at_ns, old->end_ns);
  current_->facts.start_ns = std::min(current_->facts.start_ns, at_ns);
}

WindowResult CaptureWindows::stop(uint64_t at_ns) {
  if (!current_) return {false, "no collection window is running"};
  if (current_->suspended_since != kOpen) {
    current_->cuts.emplace_back(current_->suspended_since, at_ns);
    current_->suspended_since = kOpen;
  }
  current_->end_ns = std::max(at_ns, current_->facts.start_ns);
  current_->due = std::chrono::steady_clock::now() + grace_;
  const uint32_t index = current_->facts.index;
  closing_.push_back(std::move(current_));
  return {true, "collection window " + std::to_string(index) + " stopped"};
}

WindowResult CaptureWindows::suspend(uint64_t at_ns) {
  if (!current_) return {false, "no collection window is running"};
  if (current_->suspended_since != kOpen) return {false, "collection is already suspended"};
  current_->suspended_since = std::max(at_ns, current_->facts.start_ns);
  return {true, "collection window " + std::to_string(current_->facts.index) + " suspended"};
}

WindowResult CaptureWindows::resume(uint64_t at_ns) {
  if (!current_) return {false, "no collection window is running"};
  if (current_->suspended_since == kOpen) return {false, "collection is not suspended"};
  current_->cuts.emplace_back(current_->suspended_since,
                              std::max(at_ns, current_->suspended_since));
  current_->suspended_since = kOpen;
  return {true, "collection window " + std::to_string(current_->facts.index) + " resumed"};
}

WindowResult CaptureWindows::dump(const CaptureEnd &end, std::string *path) {
  if (!current_) return {false, "nothing is being collected"};
  const std::string error = current_->output->dump(catalog_, end, path);
  if (!error.empty()) return {false, error};
  return {true, "flight recorder dumped to " + *path};
}

WindowResult CaptureWindows::cancel(uint64_t) {
  if (!current_) return {false, "no collection window is running"};
  const uint32_t index = current_->facts.index;
  current_->output->discard();
  current_.reset();
  return {true, "collection window " + std::to_string(index) + " cancelled; nothing was written"};
}

void CaptureWindows::finish_window(Window &window, const CaptureEnd &end) {
  CaptureEnd own = end;
  own.end_ns = window.end_ns == kOpen ? end.end_ns : window.end_ns;
  own.events = window.events;
  const std::string error = window.output->finish(catalog_, own);
  ++completed_;
  if (finished_) finished_(window.facts.index, window.output->description(), error);
}

void CaptureWindows::finish_due(std::chrono::steady_clock::time_point now, const CaptureEnd &end) {
  while (!closing_.empty() && closing_.front()->due <= now) {
    finish_window(*closing_.front(), end);
    closing_.erase(closing_.begin());
  }
}

bool CaptureWindows::grace_over(std::chrono::steady_clock::time_point now) const {
  return std::all_of(closing_.begin(), closing_.end(),
                     [now](const auto &window) { return window->due <= now; });
}

void CaptureWindows::catalog_grew(const Catalog &catalog, const CatalogMark &seen,
                                  const CatalogMark &now) {
  mark_ = now;
  for (EventSink *sink : shared_)
    sink->catalog_grew(catalog, seen, now);
  if (current_) current_->output->sink().catalog_grew(catalog, seen, now);
  for (auto &window : closing_)
    window->output->sink().catalog_grew(catalog, seen, now);
}

CaptureWindows::Window *CaptureWindows::window_of(uint64_t ts) {
  if (current_ && current_->keeps(ts)) return current_.get();
  for (auto &window : closing_)
    if (window->keeps(ts)) return window.get();
  return nullptr;
}

void CaptureWindows::deliver(Window *window, const prof_event *events, size_t count) {
  if (!window || count == 0) return;
  window->events += count;
  window->output->sink().consume(events, count);
  for (EventSink *sink : shared_)
    sink->consume(events, count);
}

void CaptureWindows::consume(const prof_event *events, size_t count) {
  // Runs of events bound for the same window go out as one batch.
  size_t run_begin = 0;
  Window *run_window = count ? window_of(events[0].ts) : nullptr;
  for (size_t i = 1; i < count; ++i) {
    Window *window = window_of(events[i].ts);
    if (window == run_window) continue;
    deliver(run_window, events + run_begin, i - run_begin);
    run_begin = i;
    run_window = window;
  }
  deliver(run_window, events + run_begin, count - run_begin);
}

void CaptureWindows::finish(const Catalog &, const CaptureEnd &end) {
  if (current_) stop(end.end_ns);
  // The capture is over: nothing more can arrive for any window.
  for (auto &window : closing_)
    finish_window(*window, end);
  closing_.clear();
}

} // namespace prof::core
