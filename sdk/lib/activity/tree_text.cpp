#include <prof/activity/tree_text.hpp>

#include <prof/activity/device_tree.hpp>
#include <prof/activity/name_match.hpp>

namespace prof::activity {
namespace {

std::string engine_line(const DeviceTree &tree, uint32_t engine, ItemKind kind) {
  std::string line(tree.engine_name(engine));
  line += index_range(tree.engine_instances(engine)) + ":";
  for (uint32_t i = 0; i < tree.item_count(engine, kind); ++i) {
    if (i) line += ',';
    line += tree.item_name(engine, kind, i);
  }
  return line;
}

} // namespace

std::vector<std::string> format_tree(const prof_gcu_topology &topology, ItemKind kind) {
  const DeviceTree tree(topology);
  std::vector<std::string> lines;
  lines.push_back("==== Device" + index_range(tree.device_count()) + ":");
  for (uint32_t g = 0; g < tree.group_count(); ++g) {
    lines.push_back(std::string(tree.group_name(g)) + index_range(tree.group_instances(g)) + ":");
    for (uint32_t e : tree.engines_in(static_cast<int32_t>(g)))
      lines.push_back(engine_line(tree, e, kind));
  }
  for (uint32_t e : tree.engines_in(kDeviceGroup))
    lines.push_back(engine_line(tree, e, kind));
  if (kind == ItemKind::Activity) {
    std::vector<std::string> api = format_api_domains(topology);
    lines.insert(lines.end(), api.begin(), api.end());
  }
  return lines;
}

std::vector<std::string> format_api_domains(const prof_gcu_topology &topology) {
  const DeviceTree tree(topology);
  std::vector<std::string> lines{"==== Api Trace:"};
  for (uint32_t d = 0; d < tree.domain_count(); ++d) {
    std::string line(tree.domain_name(d));
    line += index_range(1) + ":";
    for (uint32_t f = 0; f < tree.function_count(d); ++f) {
      if (f) line += ',';
      line += tree.function_name(d, f);
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

} // namespace prof::activity
