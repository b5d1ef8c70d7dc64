#include <prof/activity/device_list.hpp>

#include <prof/activity/filter.hpp>
#include <prof/activity/name_match.hpp>
#include <prof/activity/text_piece.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace prof::activity {
namespace {

std::string join(const std::vector<uint32_t> &devices) {
  std::string out;
  for (uint32_t d : devices)
    out += (out.empty() ? "" : ",") + std::to_string(d);
  return out;
}

bool contains(const std::vector<uint32_t> &devices, uint32_t device) {
  return std::find(devices.begin(), devices.end(), device) != devices.end();
}

} // namespace

std::vector<uint32_t> parse_device_list(const prof_gcu_topology &topology, std::string_view text) {
  const uint32_t count = topology.device_count;
  auto fail = [&](TextPiece where, const std::string &message) {
    std::string line = "--devices \"" + one_line(text) + "\"";
    if (!where.text.empty()) line += " at '" + one_line(where.text) + "'";
    line += " (column " + std::to_string(where.offset + 1) + "): " + message;
    throw SelectionError(line);
  };
  const std::string expected =
      "expected device numbers " + index_range(count) + " separated by ','";
  const TextPiece whole = trim({text, 0});
  if (whole.text.empty()) fail(whole, "no devices; " + expected);
  std::vector<uint32_t> devices;
  for (TextPiece word : split(whole, ',')) {
    if (word.text.empty()) fail(word, "empty entry; " + expected);
    const std::optional<uint64_t> device = parse_decimal(word.text);
    if (!device) fail(word, "not a device number; " + expected);
    if (*device >= count) fail(word, "no such device; devices are " + index_span(count));
    if (contains(devices, static_cast<uint32_t>(*device)))
      fail(word, "device " + std::to_string(*device) + " is listed twice");
    devices.push_back(static_cast<uint32_t>(*device));
  }
  std::sort(devices.begin(), devices.end());
  return devices;
}

Selection restrict_to_devices(const prof_gcu_topology &topology, ItemKind kind,
                              std::string_view filter_text, const Selection &selection,
                              const std::vector<uint32_t> &devices,
                              std::string_view filter_option) {
  const std::string both = "--devices \"" + join(devices) + "\" and " + std::string(filter_option) +
                           " \"" + one_line(filter_text) + "\" disagree: ";
  const std::string hint = "; name the same devices in both, or '*' as the filter's device";
  for (uint32_t d : devices)
    if (d >= topology.device_count)
      throw SelectionError("--devices \"" + join(devices) + "\": no device " + std::to_string(d) +
                           "; devices are " + index_span(topology.device_count));

  bool all_devices = false;
  std::vector<uint32_t> covered;
  for (const RuleDevices &rule : filter_rule_devices(topology, kind, filter_text)) {
    all_devices = all_devices || rule.all_devices;
    for (uint32_t d : rule.devices) {
      if (!contains(devices, d))
        throw SelectionError(both + "rule '" + one_line(rule.rule) + "' names device " +
                             std::to_string(d) + ", which --devices leaves out" + hint);
      covered.push_back(d);
    }
  }
  for (uint32_t d : devices)
    if (!all_devices && !contains(covered, d))
      throw SelectionError(both + "--devices names device " + std::to_string(d) +
                           ", which no rule of " + std::string(filter_option) + " covers" + hint);

  Selection out;
  out.apis = selection.apis;
  for (const prof_gcu_item &item : selection.items)
    if (contains(devices, item.device)) out.items.push_back(item);
  if (out.empty()) throw SelectionError(both + "together they select nothing");
  return out;
}

} // namespace prof::activity
