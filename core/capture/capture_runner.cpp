#include "core/capture/capture_runner.hpp"

#include "core/session_clock.hpp"
#include "core/shm_event_source.hpp"

#include <algorithm>
#include <cstdio>

namespace prof::core {

CaptureRunner::CaptureRunner(CaptureContext &capture, const std::string &session_name)
    : capture_(capture), session_(session_name) {}

CaptureRunner::~CaptureRunner() {
  if (stopped_) return;
  if (started_)
    stop();
  else if (before_stop_)
    before_stop_(); // nothing ran, but the front end's threads end all the same
}

std::string CaptureRunner::add_sources(const std::vector<PluginChoice> &sources) {
  for (const PluginChoice &choice : sources) {
    auto source = std::make_unique<SourceInstance>(*choice.plugin, choice.options, capture_);
    if (!source->create() || !source->configure()) return source->error();
    session_.add_source(std::move(source));
  }
  return "";
}

std::string CaptureRunner::open_exporters(const std::vector<PluginChoice> &exporters) {
  for (const PluginChoice &choice : exporters) {
    auto exporter = std::make_unique<ExporterInstance>(
        *choice.plugin, choice.options, capture_.catalog, capture_.console, capture_.session);
    if (!exporter->open()) return exporter->error();
    exporters_.push_back(std::move(exporter));
  }
  return "";
}

void CaptureRunner::add_shared(ShmEventSource &shared) { shared_ = &shared; }

CaptureController &CaptureRunner::control(const CapturePlan &plan, CaptureWindows::OpenOutput open,
                                          CaptureController::EndApplication end_application) {
  std::vector<EventSink *> sinks;
  for (const auto &exporter : exporters_)
    sinks.push_back(exporter.get());
  controller_ = std::make_unique<CaptureController>(
      plan, capture_.catalog, std::move(sinks), std::move(open), capture_.console,
      std::move(end_application),
      [this] { return pump_ ? pump_->totals() : CaptureEnd{session_now_ns()}; });
  if (shared_) controller_->add_requests(*shared_->region().header());
  sources_switch_ = std::make_unique<SourcesSwitch>(session_, capture_.console);
  controller_->on_sources_needed([this](bool needed) { sources_switch_->set(needed); });
  controller_->launched(capture_.session.start_ns);
  return *controller_;
}

std::string CaptureRunner::start() {
  pump_ = std::make_unique<EventPump>(capture_.bus, capture_.catalog,
                                      std::vector<EventSink *>{&controller_->windows()});
  if (shared_) pump_->add_source(*shared_);
  pump_->set_before_drain(*controller_);
  pump_->start();
  started_ = true;
  if (!session_.start()) {
    stop();
    return session_.error();
  }
  sources_switch_->started();
  return "";
}

void CaptureRunner::stop() {
  if (stopped_) return;
  stopped_ = true;
  if (before_stop_) before_stop_();
  sources_switch_->stopping();
  // A session that never started has nothing to stop.
  const SessionState state = session_.state();
  if ((state == SessionState::Running || state == SessionState::Suspended) && !session_.stop())
    capture_.console.warning(session_.error());
  pump_->stop();
  controller_->close();
}

bool CaptureRunner::finish(int exit_code, int exit_signal,
                           const std::function<void()> &before_exporters) {
  CaptureEnd end = pump_->totals();
  end.exit_code = exit_code;
  end.exit_signal = exit_signal;
  if (shared_)
    if (const uint64_t lost = shared_->catalog_overflow())
      capture_.console.warning(std::to_string(lost) +
                               " definitions from the application were lost: "
                               "the shared catalog was full");
  controller_->windows().finish(capture_.catalog, end);
  if (before_exporters) before_exporters();
  bool ok = !controller_->report_failed();
  for (auto &exporter : exporters_) {
    exporter->finish(capture_.catalog, end);
    if (exporter->failed()) {
      std::fprintf(stderr, "prof: %s\n", exporter->error().c_str());
      ok = false;
    }
  }
  // The summary states drops in its own output; without one, say it here.
  const bool summary_states_drops =
      std::any_of(exporters_.begin(), exporters_.end(),
                  [](const auto &e) { return e->plugin().name == "summary"; });
  if (end.dropped > 0 && !summary_states_drops)
    capture_.console.warning(std::to_string(end.dropped) +
                             " events were dropped because rings were full; "
                             "raise --host-ringbuffer-size");
  return ok;
}

} // namespace prof::core
