#include "core/capture/capture_controller.hpp"

#include "core/runtime/session_clock.hpp"

#include <prof/profiler_api.h>

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <filesystem>

namespace prof::core {

CaptureController::CaptureController(const CapturePlan &plan, const core::Catalog &catalog,
                                     std::vector<core::EventSink *> shared,
                                     core::CaptureWindows::OpenOutput open, core::Console &console,
                                     EndApplication end_application, Progress progress)
    : plan_(plan), console_(console), end_application_(std::move(end_application)),
      progress_(std::move(progress)),
      windows_(catalog, std::move(shared), std::move(open),
               [this](uint32_t index, const std::string &path, const std::string &error) {
                 window_finished(index, path, error);
               }),
      steps_(plan.at_step, plan.step_count, plan.step_processes) {}

void CaptureController::add_requests(core::ShmHeader &header) {
  requests_.emplace_back(header);
  if (plan_.flight_bytes != 0 || plan_.flight_ns != 0) unfinished_.add(header);
  switch (plan_.range) {
  case CaptureRange::ProfilerApi:
    core::want_capture_requests(header, 1u << PROF_CAPTURE_START | 1u << PROF_CAPTURE_STOP, "", "");
    break;
  case CaptureRange::Steps:
    core::want_capture_requests(header, 1u << PROF_CAPTURE_STEP | 1u << kCaptureStepPosition, "",
                                "");
    break;
  case CaptureRange::Annotation:
    core::want_capture_requests(header,
                                1u << PROF_CAPTURE_RANGE_BEGIN | 1u << PROF_CAPTURE_RANGE_END,
                                plan_.annotation_name, plan_.annotation_domain);
    break;
  case CaptureRange::None: // --hang-timeout watches the steps and communication calls
    core::want_capture_requests(
        header, plan_.hang_timeout_ns ? 1u << PROF_CAPTURE_STEP | 1u << kCaptureStall : 0, "", "");
    break;
  }
}

void CaptureController::on_sources_needed(SourcesNeeded switch_sources) {
  switch_sources_ = std::move(switch_sources);
}

void CaptureController::update_sources(uint64_t now) {
  // Sources wake this long before a --delay ends, so its window misses nothing.
  constexpr uint64_t kWakeAheadNs = 200'000'000;
  const auto delay = static_cast<uint64_t>(plan_.delay.count());
  const bool delay_near = delay > 0 && !delay_done_ && now + kWakeAheadNs >= launch_ns_ + delay;
  const bool ranges_ahead = plan_.range != CaptureRange::None && !ranges_done_;
  const bool needed = ranges_ahead || windows_.collecting() || windows_.finishing() || delay_near;
  if (!switch_sources_ || needed == sources_needed_) return;
  sources_needed_ = needed;
  switch_sources_(needed);
}

void CaptureController::launched(uint64_t at_ns) {
  launch_ns_ = at_ns;
  if (!plan_.collects_at_launch()) return;
  // Everything from launch on, device records converted from before it included.
  const core::WindowResult result = windows_.start(0);
  if (!result.ok) throw std::runtime_error(result.text);
  window_start_ns_ = at_ns;
  started_.fetch_add(1);
  publish_state();
}

std::string CaptureController::command(control::Command command, const std::string &argument,
                                       std::chrono::milliseconds timeout) {
  std::future<std::string> answer;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return "error the capture is ending";
    pending_.push_back(Pending{command, argument, {}});
    answer = pending_.back().answer.get_future();
  }
  if (answer.wait_for(timeout) != std::future_status::ready)
    return "error prof did not act on " + std::string(control::command_name(command)) + " in time";
  return answer.get();
}

void CaptureController::close() {
  std::deque<Pending> left;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    left.swap(pending_);
  }
  for (Pending &p : left)
    p.answer.set_value("error the capture is ending");
  for (std::promise<std::string> &answer : dump_.answers)
    answer.set_value("error the capture ended before the dump was written");
  dump_ = {};
}

std::string CaptureController::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

std::string CaptureController::output() const {
  std::lock_guard lock(mutex_);
  return output_;
}

void CaptureController::publish_state() {
  std::lock_guard lock(mutex_);
  state_ = windows_.suspended() ? "suspended" : windows_.collecting() ? "running" : "waiting";
  if (std::string current = windows_.current_output(); !current.empty()) output_ = current;
}

std::string CaptureController::apply(control::Command command, const std::string &argument,
                                     uint64_t now) {
  core::WindowResult result;
  switch (command) {
  case control::Command::Start:
    result = windows_.start(now, argument);
    if (result.ok) {
      window_start_ns_ = now;
      duration_done_ = false;
      started_.fetch_add(1);
    }
    break;
  case control::Command::Stop:
    result = windows_.stop(now);
    if (result.ok && plan_.stop_ends_capture) {
      shutdown_pending_ = true;
      result.text += "; the capture ends";
    }
    break;
  case control::Command::Suspend:
    result = windows_.suspend(now);
    break;
  case control::Command::Resume:
    result = windows_.resume(now);
    break;
  case control::Command::Cancel:
    result = windows_.cancel(now);
    break;
  case control::Command::Shutdown:
    if (windows_.collecting()) windows_.stop(now);
    shutdown_pending_ = true;
    result = {true, plan_.kill_signal ? "shutting down: the application is being stopped"
                                      : "shutting down: the application runs on unprofiled"};
    break;
  case control::Command::Status:
    result = {true, state_};
    break;
  case control::Command::Dump: // answered by write_dump()
    break;
  }
  if (result.ok) console_.line(result.text);
  return (result.ok ? "ok " : "error ") + result.text;
}

bool CaptureController::matches_annotation(const core::CaptureRequest &request) const {
  return core::range_matches(request.name, request.domain, plan_.annotation_name,
                             plan_.annotation_domain);
}

void CaptureController::range_begins(uint64_t ts) {
  // As asys: the first start opens a range, further starts inside it are ignored.
  if (ranges_done_ || windows_.collecting()) return;
  const core::WindowResult result = windows_.start(ts);
  if (!result.ok) {
    console_.warning("capture range not started: " + result.text);
    return;
  }
  window_start_ns_ = ts;
  started_.fetch_add(1);
  console_.line(result.text);
}

void CaptureController::range_ends(uint64_t ts) {
  if (!windows_.collecting()) return;
  console_.line(windows_.stop(ts).text);
  ++ranges_;
  const bool limit_reached = plan_.range_limit != 0 && ranges_ >= plan_.range_limit;
  switch (plan_.range_end) {
  case RangeEnd::Stop:
    ranges_done_ = true;
    break;
  case RangeEnd::StopShutdown:
    ranges_done_ = true;
    shutdown_pending_ = true;
    break;
  case RangeEnd::Repeat:
    ranges_done_ = limit_reached;
    break;
  case RangeEnd::RepeatShutdown:
    ranges_done_ = limit_reached;
    shutdown_pending_ = limit_reached;
    break;
  }
}

void CaptureController::take_requests() {
  for (core::CaptureRequestReader &reader : requests_)
    for (const core::CaptureRequest &request : reader.take()) {
      if (request.kind == PROF_CAPTURE_STEP && plan_.hang_timeout_ns) step_heard(request);
      if (request.kind == kCaptureStall && plan_.hang_timeout_ns) stall_heard(request);
      if (plan_.range == CaptureRange::ProfilerApi) {
        if (request.kind == PROF_CAPTURE_START) range_begins(request.ts);
        if (request.kind == PROF_CAPTURE_STOP) range_ends(request.ts);
      } else if (plan_.range == CaptureRange::Steps) {
        take_step_request(request);
      } else if (plan_.range == CaptureRange::Annotation && matches_annotation(request)) {
        if (request.kind == PROF_CAPTURE_RANGE_BEGIN) range_begins(request.ts);
        if (request.kind == PROF_CAPTURE_RANGE_END) range_ends(request.ts);
      }
    }
}

void CaptureController::take_step_request(const core::CaptureRequest &request) {
  uint64_t steps = 0;
  const char *end = request.name.data() + request.name.size();
  if (auto [at, ec] = std::from_chars(request.name.data(), end, steps);
      ec != std::errc() || at != end)
    return;
  if (request.kind == kCaptureStepPosition) {
    steps_.position(request.pid, steps);
    if (steps_.late().contains(request.pid))
      console_.warning("process " + std::to_string(request.pid) + " joined in step " +
                       std::to_string(steps + 1) + ", past --at-step " +
                       std::to_string(steps_.first_step()) + ": its steps are not captured");
    return;
  }
  if (request.kind != PROF_CAPTURE_STEP || steps == 0) return;
  const bool open = windows_.collecting();
  switch (steps_.boundary(request.pid, steps, request.ts)) {
  case StepAlignment::Action::Open:
    range_begins(request.ts);
    break;
  case StepAlignment::Action::Close:
    if (open)
      console_.line("step " + std::to_string(steps_.last_step()) + " ended in every process");
    range_ends(request.ts);
    break;
  case StepAlignment::Action::None:
    break;
  }
  // Boundaries are heard in the order their processes' queues are read, not
  // in time: the window keeps every process's step from its own begin.
  if (windows_.collecting())
    for (const auto &[pid, span] : steps_.spans())
      windows_.start_earlier(span.begin);
}

// Without --at-step, S is picked once every joining process told its step,
// or 3 s after launch with those that did.
void CaptureController::pick_steps(uint64_t now) {
  if (plan_.range != CaptureRange::Steps || steps_.first_step() != 0) return;
  const bool given = plan_.at_step != 0;
  if (!steps_.pick(now >= launch_ns_ + 3'000'000'000ull)) return;
  if (given) return;
  console_.line("capturing steps " + std::to_string(steps_.first_step()) + " to " +
                std::to_string(steps_.last_step()) + " (" + steps_.positions_text() + ")");
}

void CaptureController::steps_joined(size_t processes) {
  std::lock_guard lock(mutex_);
  step_processes_joined_ = processes;
}

void CaptureController::step_heard(const core::CaptureRequest &request) {
  uint64_t number = 0;
  std::from_chars(request.name.data(), request.name.data() + request.name.size(), number);
  LastStep &last = last_steps_[request.pid];
  last = {number, request.ts, false};
}

namespace {
// "5.0": the seconds of a hang, as its console line says them.
std::string seconds_text(uint64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(ns) / 1e9);
  return text;
}
} // namespace

// --hang-timeout: a process that marked steps and made none for that long
// has its flight recorder written, once until it steps again. One dump per
// hang: a process whose last step came before the last hang's dump is in
// that dump as it is now.
void CaptureController::watch_hangs(uint64_t now) {
  for (auto &[pid, last] : last_steps_) {
    if (last.dumped || now < last.ts + plan_.hang_timeout_ns) continue;
    last.dumped = true;
    if (last.ts < hang_dumped_ns_) continue;
    if (kill(pid, 0) != 0 && errno == ESRCH) continue; // it ended
    dump_.hangs.push_back("process " + std::to_string(pid) + " made no step for " +
                          seconds_text(now - last.ts) + " s (its last: step " +
                          std::to_string(last.number) + ")");
    hang_dumped_ns_ = now;
    ask_for_dump(now);
  }
}

// --hang-timeout: an agent saw a thread inside one communication call that
// long. One dump per hang: a call that began before the last hang's dump is
// open in it (the other ranks of the same hang tell theirs a moment later).
void CaptureController::stall_heard(const core::CaptureRequest &request) {
  if (request.ts < hang_dumped_ns_) return;
  uint64_t waited = 0;
  std::from_chars(request.name.data(), request.name.data() + request.name.size(), waited);
  dump_.hangs.push_back("process " + std::to_string(request.pid) +
                        " has waited in one communication call for " + seconds_text(waited) + " s");
  hang_dumped_ns_ = core::session_now_ns();
  ask_for_dump(hang_dumped_ns_);
}

void CaptureController::ask_for_dump(uint64_t now) {
  if (!unfinished_.ask(now)) write_dump();
}

// One dump for every request that came while the agents were asked.
void CaptureController::write_dump() {
  std::string path;
  const WindowResult result = windows_.dump(progress_(), &path);
  if (dump_.hangs.empty() && result.ok) console_.line(result.text);
  for (const std::string &hang : dump_.hangs)
    console_.line(hang + ": " + result.text);
  for (std::promise<std::string> &answer : dump_.answers)
    answer.set_value((result.ok ? "ok " : "error ") + result.text);
  dump_ = {};
  if (result.ok && !path.empty() && dumped_) dumped_(path);
}

void CaptureController::before_drain() {
  std::deque<Pending> commands;
  {
    std::lock_guard lock(mutex_);
    commands.swap(pending_);
    if (step_processes_joined_) steps_.expect(*step_processes_joined_);
    step_processes_joined_.reset();
  }
  const uint64_t now = core::session_now_ns();
  for (Pending &p : commands) {
    if (p.command != control::Command::Dump) {
      p.answer.set_value(apply(p.command, p.argument, now));
      continue;
    }
    dump_.answers.push_back(std::move(p.answer));
    ask_for_dump(now);
  }
  take_requests();
  pick_steps(now);
  if (plan_.hang_timeout_ns) watch_hangs(now);
  if (unfinished_.ready(now)) write_dump();
  const auto delay = static_cast<uint64_t>(plan_.delay.count());
  if (!delay_done_ && delay > 0 && now >= launch_ns_ + delay) {
    delay_done_ = true;
    if (!windows_.collecting()) apply(control::Command::Start, "", launch_ns_ + delay);
  }
  const auto duration = static_cast<uint64_t>(plan_.duration.count());
  if (duration > 0 && !duration_done_ && windows_.collecting() &&
      now >= window_start_ns_ + duration) {
    const uint64_t end = window_start_ns_ + duration;
    windows_.stop(end);
    if (plan_.rotation > 0) {
      apply(control::Command::Start, "", end); // the next report begins where this one ends
    } else {
      duration_done_ = true;
      console_.line("collection ended after --duration");
      if (plan_.kill_signal != 0 || plan_.attached) shutdown_pending_ = true;
    }
  }
  // Once the capture is ending, stopped windows are finished with it, after
  // the sources stopped: some hand over their events only then (cpu-perf's
  // samples), and a window finished earlier would lose them.
  if (shutdown_pending_) ending_ = true;
  const auto steady_now = std::chrono::steady_clock::now();
  if (!ending_) windows_.finish_due(steady_now, progress_());
  if (shutdown_pending_ && windows_.grace_over(steady_now)) {
    shutdown_pending_ = false;
    end_application_(plan_.kill_signal);
  }
  update_sources(now);
  publish_state();
}

void CaptureController::window_finished(uint32_t, const std::string &path,
                                        const std::string &error) {
  if (!error.empty()) {
    // An error, not a warning: prof's exit status says the report failed.
    std::fprintf(stderr, "prof: %s\n", error.c_str());
    report_failed_.store(true);
    return;
  }
  if (path.empty()) return;
  if (!plan_.reports_split) console_.line("Generated: " + path);
  if (plan_.rotation == 0) return;
  rotated_.push_back(path);
  while (rotated_.size() > plan_.rotation) {
    std::error_code ec;
    std::filesystem::remove(rotated_.front(), ec);
    rotated_.pop_front();
  }
}

} // namespace prof::core
