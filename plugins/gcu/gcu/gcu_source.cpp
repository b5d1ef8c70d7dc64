#include "gcu_source.hpp"

#include "driver_loader.hpp"
#include "metrics.hpp"
#include "thread_tracks.hpp"
#include "tree_queries.hpp"
#include <prof/correlation.hpp>
#include <prof/declared_options.hpp>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <unistd.h>

namespace prof::gcu {

GcuSource::GcuSource(Host host)
    : host_(host), driver_(&open_gcu_driver(DeclaredOptions(host_, kGcuOptions), topology_)),
      kinds_(*driver_, *topology_) {}

GcuSource::~GcuSource() {
  if (subscribed_) driver_->unsubscribe(handle_);
}

bool GcuSource::query(std::string_view what, QueryPrinter print, void *ctx) {
  if (what == "trace") {
    print_api_domains(*topology_, print, ctx);
    return true;
  }
  return answer_tree_query(host_, DeclaredOptions(host_, kGcuOptions), *topology_,
                           activity::ItemKind::Activity, what, print, ctx);
}

bool GcuSource::configure() {
  const DeclaredOptions declared(host_, kGcuOptions);
  try {
    std::string defaults;
    if (const std::string_view metrics = declared.text("metrics"); !metrics.empty())
      defaults = std::string(metric_defaults(metrics).activities);
    options_ = read_capture_options(declared, *topology_, activity::ItemKind::Activity, defaults);
  } catch (const std::exception &e) {
    host_.error(e.what());
    return false;
  }
  if (options_.selection.empty() && !declared.flag("utilization")) {
    host_.error("nothing to record: give --enable-activities, --import-activities, --metrics or "
                "--gcu-utilization");
    return false;
  }
  return true;
}

bool GcuSource::start() {
  const DeclaredOptions declared(host_, kGcuOptions);
  pid_ = getpid();
  tracks_ = std::make_unique<DeviceTracks>(host_, *driver_, pid_);
  memory_ = std::make_unique<MemoryEvents>(host_, *tracks_, pid_);
  activity_names_.assign(topology_->engine_count, {});
  for (uint32_t e = 0; e < topology_->engine_count; ++e)
    for (uint32_t a = 0; a < topology_->engines[e].activity_count; ++a)
      activity_names_[e].push_back(host_.intern(topology_->engines[e].activities[a]));
  api_names_.assign(topology_->api_domain_count, {});
  for (uint32_t d = 0; d < topology_->api_domain_count; ++d)
    for (uint32_t f = 0; f < topology_->api_domains[d].function_count; ++f)
      api_names_[d].push_back(host_.intern(topology_->api_domains[d].functions[f]));
  api_category_ = host_.intern("api");
  bytes_key_ = host_.intern("bytes");
  api_traced_ = !options_.selection.apis.empty();

  if (!options_.selection.empty()) {
    prof_gcu_capture_config config = make_capture_config(options_);
    config.on_records = &GcuSource::on_records;
    config.on_api = &GcuSource::on_api;
    config.user = this;
    char error[256] = {};
    if (driver_->subscribe(&config, &handle_, error, sizeof error) != 0) {
      host_.error(std::string("GCU driver refused the capture: ") + error);
      return false;
    }
    subscribed_ = true;
  }
  if (declared.flag("utilization")) {
    std::vector<uint32_t> devices = options_.devices;
    if (devices.empty())
      for (uint32_t d = 0; d < topology_->device_count; ++d)
        devices.push_back(d);
    utilization_ = std::make_unique<UtilizationSampler>(host_, *driver_, *tracks_, devices);
    if (!utilization_->start(static_cast<int>(declared.integer("utilization-frequency")))) {
      host_.error("cannot start the GCU utilization sampler");
      return false;
    }
  }
  // Fresh calibration pairs let the core follow the device clock's drift.
  calibration_.start(std::chrono::milliseconds(100), [this] { tracks_->calibrate(); });
  return true;
}

bool GcuSource::stop() {
  if (utilization_) utilization_->stop();
  if (subscribed_) {
    driver_->flush(handle_);
    report_drops();
    driver_->unsubscribe(handle_);
    subscribed_ = false;
  }
  calibration_.stop();
  if (tracks_) tracks_->calibrate();
  return true;
}

bool GcuSource::suspend() {
  if (subscribed_) driver_->set_collecting(handle_, 0);
  if (utilization_) utilization_->set_paused(true);
  return true;
}

bool GcuSource::resume() {
  if (subscribed_) driver_->set_collecting(handle_, 1);
  if (utilization_) utilization_->set_paused(false);
  return true;
}

bool GcuSource::flush() {
  if (subscribed_) driver_->flush(handle_);
  return true;
}

void GcuSource::report_drops() {
  for (uint32_t device = 0; device < topology_->device_count; ++device) {
    prof_gcu_buffer_stats stats{};
    stats.struct_size = sizeof stats;
    if (driver_->stats(handle_, device, &stats) != 0 || stats.produced == 0) continue;
    // In the report as counters, so every exporter and a later reader see them.
    // The capture's own buffers: its process's counts.
    const prof_track_id parent = tracks_->device(device);
    const uint64_t now = host_.now();
    host_.counter(
        host_.track(PROF_TRACK_COUNTER, "GCU records produced", parent, pid_, 0, -1, "records"),
        now, static_cast<double>(stats.produced));
    host_.counter(
        host_.track(PROF_TRACK_COUNTER, "GCU records dropped", parent, pid_, 0, -1, "records"), now,
        static_cast<double>(stats.dropped));
    host_.count_dropped(PROF_DROP_DEVICE_BUFFER_FULL, stats.dropped);
    if (stats.dropped > 0)
      host_.log(PROF_LOG_WARN, "GCU " + std::to_string(device) + ": " +
                                   std::to_string(stats.dropped) + " of " +
                                   std::to_string(stats.produced) +
                                   " device records were dropped because a buffer was full; raise "
                                   "--device-buffer-size or --host-ringbuffer-size");
  }
}

void GcuSource::on_records(void *self, const prof_gcu_record *records, size_t count) {
  auto &source = *static_cast<GcuSource *>(self);
  for (size_t i = 0; i < count; ++i) {
    if (records[i].kind == PROF_GCU_RECORD_ACTIVITY) source.emit_activity(records[i]);
    if (records[i].kind == PROF_GCU_RECORD_MEMORY) source.emit_memory(records[i]);
  }
}

const GcuSource::Label &GcuSource::label(uint32_t id) {
  if (auto it = labels_.find(id); it != labels_.end()) return it->second;
  const char *text = driver_->label(id);
  return labels_.emplace(id, Label{host_.intern(text ? text : ""), kinds_.label_category(id)})
      .first->second;
}

void GcuSource::emit_activity(const prof_gcu_record &r) {
  if (r.engine >= topology_->engine_count ||
      r.item >= topology_->engines[r.engine].activity_count || r.end < r.start)
    return;
  const prof_gcu_engine_desc &engine = topology_->engines[r.engine];
  // Work of device-level engines (operators, launches) gets a row per stream,
  // so kernels of concurrent streams do not overlap on one row.
  const prof_track_id track =
      engine.group < 0 && r.stream != 0
          ? tracks_->stream(r.device, r.engine, r.stream)
          : tracks_->engine_instance(r.device, r.group, r.group_index, r.engine, r.engine_index);
  if (track == 0) return;
  const prof_string_id category = activity_names_[r.engine][r.item];
  const Label none{};
  const Label &named = r.label != 0 ? label(r.label) : none;
  const prof_string_id name = r.label != 0 ? named.name : category;
  // The label refines the activity's category (a copy's direction), but
  // only of work that has one: a kernel's launch is not the kernel.
  uint16_t kind = kinds_.category(r.engine, r.item);
  if (kind != PROF_CATEGORY_OTHER && named.category != PROF_CATEGORY_OTHER) kind = named.category;
  const uint64_t correlation = session_correlation(pid_, r.correlation_id);
  const prof_arg bytes = arg_uint(bytes_key_, r.bytes);
  host_.slice(track, r.start, r.end - r.start, name, category, correlation,
              static_cast<prof_category>(kind),
              std::span<const prof_arg>(&bytes, r.bytes != 0 ? 1 : 0));
  if (api_traced_ && correlation != 0 && kinds_.ends_flow(r.engine, r.item))
    flows_.work(correlation, track, r.start);
}

void GcuSource::emit_memory(const prof_gcu_record &record) {
  static_assert(sizeof(prof_gcu_memory_record) == sizeof(prof_gcu_record));
  prof_gcu_memory_record r;
  std::memcpy(&r, &record, sizeof r);
  if (r.device >= topology_->device_count) return;
  // The driver's name of the activity is the display category ("Memory").
  const bool named =
      r.engine < topology_->engine_count && r.item < topology_->engines[r.engine].activity_count;
  memory_->add(r, named ? activity_names_[r.engine][r.item] : 0);
}

void GcuSource::on_api(void *self, const prof_gcu_api_record *record) {
  auto &source = *static_cast<GcuSource *>(self);
  const prof_gcu_topology &topology = *source.topology_;
  if (record == nullptr || record->domain >= topology.api_domain_count ||
      record->function >= topology.api_domains[record->domain].function_count ||
      record->end_ns < record->begin_ns)
    return;
  const prof_track_id track = calling_thread_track(source.host_);
  if (track == 0) return;
  const uint64_t correlation = session_correlation(source.pid_, record->correlation_id);
  // A call that waits for the device is a sync slice (driver 1.3).
  const auto kind =
      static_cast<prof_category>(source.kinds_.api_category(record->domain, record->function));
  source.host_.slice(track, record->begin_ns, record->end_ns - record->begin_ns,
                     source.api_names_[record->domain][record->function], source.api_category_,
                     correlation, kind);
  if (correlation != 0) source.flows_.call(correlation, track, record->begin_ns);
}

} // namespace prof::gcu
