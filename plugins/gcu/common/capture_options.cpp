#include "capture_options.hpp"

#include <prof/activity/device_list.hpp>
#include <prof/activity/filter.hpp>
#include <prof/activity/tree_json.hpp>
#include <prof/declared_options.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace prof::gcu {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

std::string read_file(const std::string &path, const std::string &option) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("--" + option + " " + path + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

CaptureOptions read_capture_options(const DeclaredOptions &declared,
                                    const prof_gcu_topology &topology, activity::ItemKind kind,
                                    const std::string &default_filter) {
  const bool activities = kind == activity::ItemKind::Activity;
  const char *filter_key = activities ? "activities" : "events";
  const char *import_key = activities ? "import-activities" : "import-events";
  const std::string filter_option = activities ? "--enable-activities" : "--enable-events";
  CaptureOptions options;
  const std::string filter(declared.text(filter_key));
  const std::string import(declared.text(import_key));
  try {
    if (!import.empty())
      options.selection =
          activity::import_tree_json(topology, kind, read_file(import, import_key), import);
    else if (!filter.empty())
      options.selection = activity::parse_filter(topology, kind, filter);
    else if (!default_filter.empty())
      options.selection = activity::parse_filter(topology, kind, default_filter);
    const std::string devices(declared.text("devices"));
    if (!devices.empty()) {
      options.devices = activity::parse_device_list(topology, devices);
      if (!options.selection.empty())
        options.selection = activity::restrict_to_devices(
            topology, kind, import.empty() ? (filter.empty() ? default_filter : filter) : "all",
            options.selection, options.devices,
            import.empty() ? filter_option : "--" + std::string(import_key));
    }
  } catch (const activity::SelectionError &e) {
    throw std::runtime_error(e.what());
  }
  options.buffer =
      declared.text("buffer") == "host" ? PROF_GCU_BUFFER_HOST : PROF_GCU_BUFFER_DEVICE;
  options.device_buffer_bytes =
      static_cast<uint64_t>(declared.integer("device-buffer-size")) * kMiB;
  options.host_ring_bytes = static_cast<uint64_t>(declared.integer("host-ringbuffer-size")) * kMiB;
  options.watermark_bytes = static_cast<uint64_t>(declared.integer("watermark-threshold")) * kMiB;
  // The default watermark follows a smaller ring; a chosen one must fit.
  if (options.watermark_bytes >= options.host_ring_bytes &&
      declared.text("watermark-threshold") == declared.default_of("watermark-threshold"))
    options.watermark_bytes = options.host_ring_bytes - kMiB;
  if (options.watermark_bytes >= options.host_ring_bytes)
    throw std::runtime_error(
        "--watermark-threshold " + std::to_string(options.watermark_bytes / kMiB) +
        " must be below --host-ringbuffer-size " + std::to_string(options.host_ring_bytes / kMiB) +
        " (1 to " + std::to_string(options.host_ring_bytes / kMiB - 1) + " MB)");
  return options;
}

prof_gcu_capture_config make_capture_config(const CaptureOptions &options) {
  prof_gcu_capture_config config{};
  config.struct_size = sizeof config;
  config.buffer = options.buffer;
  config.device_buffer_bytes = options.device_buffer_bytes;
  config.host_ring_bytes = options.host_ring_bytes;
  config.watermark_bytes = options.watermark_bytes;
  config.flush_period_ms = 200;
  config.items = options.selection.items.data();
  config.item_count = static_cast<uint32_t>(options.selection.items.size());
  config.apis = options.selection.apis.data();
  config.api_count = static_cast<uint32_t>(options.selection.apis.size());
  config.collecting = 1; // prof keeps only what falls in its collection windows
  return config;
}

} // namespace prof::gcu
