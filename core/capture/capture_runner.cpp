#include "core/capture/capture_runner.hpp"

#include "core/events/shm_event_source.hpp"
#include "core/runtime/session_clock.hpp"

#include <prof/drop_causes.hpp>

#include <algorithm>
#include <cstdio>

namespace prof::core {

CaptureRunner::CaptureRunner(const EventBusConfig &buffers, Console &console)
    : bus_(buffers), context_{catalog_, bus_, console,
                              prof_session_info{sizeof(prof_session_info)}} {
  identify(SessionIdentity{"capture", 0, "", ""});
}

CaptureRunner::~CaptureRunner() {
  if (stopped_) return;
  if (started_)
    stop();
  else if (before_stop_)
    before_stop_(); // nothing ran, but the front end's threads end all the same
}

void CaptureRunner::identify(SessionIdentity identity) {
  identity_ = std::move(identity);
  session_ = std::make_unique<Session>(identity_.name);
  prof_session_info &info = context_.session;
  info.session_name = identity_.name.c_str();
  info.target_pid = identity_.pid;
  info.command = identity_.command.c_str();
  info.hostname = identity_.host.c_str();
  const uint64_t before = session_now_ns();
  info.realtime_anchor_ns = realtime_now_ns();
  const uint64_t after = session_now_ns();
  info.monotonic_anchor_ns = before + (after - before) / 2;
}

std::string CaptureRunner::add_sources(const std::vector<PluginChoice> &sources) {
  for (const PluginChoice &choice : sources) {
    auto source = std::make_unique<SourceInstance>(*choice.plugin, choice.options, context_);
    if (!source->create() || !source->configure()) return source->error();
    session_->add_source(std::move(source));
  }
  return "";
}

std::string CaptureRunner::open_exporters(const std::vector<PluginChoice> &exporters) {
  for (const PluginChoice &choice : exporters) {
    auto exporter = std::make_unique<ExporterInstance>(*choice.plugin, choice.options, catalog_,
                                                       context_.console, context_.session);
    if (!exporter->open()) return exporter->error();
    exporters_.push_back(std::move(exporter));
  }
  return "";
}

void CaptureRunner::add_shared(std::unique_ptr<ShmEventSource> shared) {
  shared_ = std::move(shared);
}

CaptureController &CaptureRunner::control(const CapturePlan &plan,
                                          std::unique_ptr<WindowReports> reports,
                                          CaptureController::EndApplication end_application) {
  reports_ = std::move(reports);
  std::vector<EventSink *> sinks;
  for (const auto &exporter : exporters_)
    sinks.push_back(exporter.get());
  controller_ = std::make_unique<CaptureController>(
      plan, catalog_, std::move(sinks),
      [this](const WindowFacts &facts, std::string *error) { return reports_->open(facts, error); },
      context_.console, std::move(end_application),
      [this] { return pump_ ? pump_->totals() : CaptureEnd{session_now_ns()}; });
  if (shared_) controller_->add_requests(*shared_->region().header());
  sources_switch_ = std::make_unique<SourcesSwitch>(*session_, context_.console);
  controller_->on_sources_needed([this](bool needed) { sources_switch_->set(needed); });
  controller_->launched(context_.session.start_ns);
  return *controller_;
}

std::string CaptureRunner::start() {
  pump_ = std::make_unique<EventPump>(bus_, catalog_,
                                      std::vector<EventSink *>{&controller_->windows()});
  if (shared_) pump_->add_source(*shared_);
  pump_->set_before_drain(*controller_);
  pump_->start();
  started_ = true;
  if (!session_->start()) {
    stop();
    return session_->error();
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
  const SessionState state = session_->state();
  if ((state == SessionState::Running || state == SessionState::Suspended) && !session_->stop())
    context_.console.warning(session_->error());
  pump_->stop();
  controller_->close();
}

bool CaptureRunner::finish(int exit_code, int exit_signal,
                           const std::function<void()> &before_exporters) {
  CaptureEnd end = pump_->totals();
  end.exit_code = exit_code;
  end.exit_signal = exit_signal;
  controller_->windows().finish(catalog_, end);
  if (before_exporters) before_exporters();
  bool ok = !controller_->report_failed();
  for (auto &exporter : exporters_) {
    exporter->finish(catalog_, end);
    if (exporter->failed()) {
      std::fprintf(stderr, "prof: %s\n", exporter->error().c_str());
      ok = false;
    }
  }
  const bool drops_stated = std::any_of(exporters_.begin(), exporters_.end(), [](const auto &e) {
    return (e->plugin().flags & PROF_PLUGIN_STATES_DROPS) != 0;
  });
  // Device and kernel losses were said by their plugins, and prof's own
  // sources' invalid events by SourceInstance::stop, naming the plugin; an
  // application's invalid events are known only here.
  if (!drops_stated) {
    for (prof_drop_cause cause : {PROF_DROP_RING_FULL, PROF_DROP_CATALOG_FULL})
      if (const uint64_t lost = end.lost(cause))
        context_.console.warning(drop_cause_line(cause, lost));
    if (const uint64_t refused = shared_ ? shared_->invalid() : 0)
      context_.console.warning("the profiled processes' plugins: " +
                               drop_cause_line(PROF_DROP_INVALID_EVENT, refused));
  }
  return ok;
}

} // namespace prof::core
