#include "sip_pmc_source.hpp"

#include "driver_loader.hpp"
#include "metrics.hpp"
#include "tree_queries.hpp"
#include <prof/correlation.hpp>
#include <prof/declared_options.hpp>

#include <chrono>
#include <stdexcept>
#include <unistd.h>

namespace prof::gcu {

SipPmcSource::SipPmcSource(Host host)
    : host_(host), driver_(&open_gcu_driver(DeclaredOptions(host_, kSipPmcOptions), topology_)) {}

SipPmcSource::~SipPmcSource() {
  if (subscribed_) driver_->unsubscribe(handle_);
}

bool SipPmcSource::query(std::string_view what, QueryPrinter print, void *ctx) {
  return answer_tree_query(host_, DeclaredOptions(host_, kSipPmcOptions), *topology_,
                           activity::ItemKind::Event, what, print, ctx);
}

bool SipPmcSource::configure() {
  const DeclaredOptions declared(host_, kSipPmcOptions);
  try {
    std::string defaults;
    if (const std::string_view metrics = declared.text("metrics"); !metrics.empty())
      defaults = std::string(metric_defaults(metrics).events);
    options_ = read_capture_options(declared, *topology_, activity::ItemKind::Event, defaults);
  } catch (const std::exception &e) {
    host_.error(e.what());
    return false;
  }
  if (options_.selection.empty()) {
    host_.error("nothing to record: give --enable-events, --import-events or --metrics");
    return false;
  }
  return true;
}

bool SipPmcSource::start() {
  pid_ = getpid();
  tracks_ = std::make_unique<DeviceTracks>(host_, *driver_);
  prof_gcu_capture_config config = make_capture_config(options_);
  config.on_records = &SipPmcSource::on_records;
  config.user = this;
  char error[256] = {};
  if (driver_->subscribe(&config, &handle_, error, sizeof error) != 0) {
    host_.error(std::string("GCU driver refused the capture: ") + error);
    return false;
  }
  subscribed_ = true;
  calibration_.start(std::chrono::milliseconds(100), [this] { tracks_->calibrate(); });
  return true;
}

bool SipPmcSource::stop() {
  if (subscribed_) {
    driver_->unsubscribe(handle_);
    subscribed_ = false;
  }
  calibration_.stop();
  if (tracks_) tracks_->calibrate();
  return true;
}

bool SipPmcSource::suspend() {
  if (subscribed_) driver_->set_collecting(handle_, 0);
  return true;
}

bool SipPmcSource::resume() {
  if (subscribed_) driver_->set_collecting(handle_, 1);
  return true;
}

bool SipPmcSource::flush() {
  if (subscribed_) driver_->flush(handle_);
  return true;
}

void SipPmcSource::on_records(void *self, const prof_gcu_record *records, size_t count) {
  auto &source = *static_cast<SipPmcSource *>(self);
  for (size_t i = 0; i < count; ++i) {
    const prof_gcu_record &r = records[i];
    if (r.kind != PROF_GCU_RECORD_COUNTER) continue;
    const prof_track_id track =
        source.tracks_->counter(r.device, r.group, r.group_index, r.engine, r.engine_index, r.item);
    if (track == 0) continue;
    // The value covers [start, end): it is known at the end.
    source.host_.counter(track, r.end, static_cast<double>(r.value),
                         session_correlation(source.pid_, r.correlation_id));
  }
}

} // namespace prof::gcu
