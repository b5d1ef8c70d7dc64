#include <prof/activity/tree_json.hpp>

#include <prof/activity/device_tree.hpp>
#include <prof/activity/json_writer.hpp>

#include <algorithm>

namespace prof::activity {
namespace {

class TreeExporter {
public:
  TreeExporter(const prof_gcu_topology &topology, ItemKind kind, const Selection *checked)
      : tree_(topology), kind_(kind) {
    if (checked) {
      checked_ = *checked;
      normalize(checked_);
    }
  }

  std::string run() {
    out_.begin_object();
    node("root", kind_plural(kind_));
    out_.key("children");
    out_.begin_array();
    for (uint32_t d = 0; d < tree_.device_count(); ++d)
      device(d);
    if (kind_ == ItemKind::Activity) api();
    out_.end_array();
    out_.end_object();
    return out_.finish();
  }

private:
  void node(std::string_view type, std::string_view name) {
    out_.key("type");
    out_.value(type);
    out_.key("name");
    out_.value(name);
  }

  void indexed_node(std::string_view type, std::string_view name, uint32_t index) {
    node(type, std::string(name) + std::to_string(index));
    out_.key("index");
    out_.number(index);
  }

  void leaf(std::string_view name, bool check) {
    out_.begin_object();
    node(kind_name(kind_), name);
    out_.key("isCheck");
    out_.value(check);
    out_.end_object();
  }

  void device(uint32_t d) {
    out_.begin_object();
    indexed_node("device", "Device", d);
    out_.key("children");
    out_.begin_array();
    for (uint32_t g = 0; g < tree_.group_count(); ++g) {
      for (uint32_t gi = 0; gi < tree_.group_instances(g); ++gi) {
        out_.begin_object();
        indexed_node("cluster", tree_.group_name(g), gi);
        out_.key("children");
        out_.begin_array();
        for (uint32_t e : tree_.engines_in(static_cast<int32_t>(g)))
          engines(d, static_cast<int32_t>(g), gi, e);
        out_.end_array();
        out_.end_object();
      }
    }
    for (uint32_t e : tree_.engines_in(kDeviceGroup))
      engines(d, kDeviceGroup, 0, e);
    out_.end_array();
    out_.end_object();
  }

  void engines(uint32_t d, int32_t group, uint32_t group_index, uint32_t e) {
    for (uint32_t ei = 0; ei < tree_.engine_instances(e); ++ei) {
      out_.begin_object();
      indexed_node("engine", tree_.engine_name(e), ei);
      out_.key("children");
      out_.begin_array();
      for (uint32_t i = 0; i < tree_.item_count(e, kind_); ++i) {
        const prof_gcu_item item{d, group, group_index, e, ei, i};
        leaf(tree_.item_name(e, kind_, i),
             std::binary_search(checked_.items.begin(), checked_.items.end(), item, item_less));
      }
      out_.end_array();
      out_.end_object();
    }
  }

  void api() {
    out_.begin_object();
    node("api", "Api Trace");
    out_.key("children");
    out_.begin_array();
    for (uint32_t d = 0; d < tree_.domain_count(); ++d) {
      out_.begin_object();
      node("domain", tree_.domain_name(d));
      out_.key("children");
      out_.begin_array();
      for (uint32_t f = 0; f < tree_.function_count(d); ++f) {
        const prof_gcu_api_item item{d, f};
        leaf(tree_.function_name(d, f),
             std::binary_search(checked_.apis.begin(), checked_.apis.end(), item, api_less));
      }
      out_.end_array();
      out_.end_object();
    }
    out_.end_array();
    out_.end_object();
  }

  DeviceTree tree_;
  ItemKind kind_;
  Selection checked_;
  JsonWriter out_;
};

} // namespace

std::string export_tree_json(const prof_gcu_topology &topology, ItemKind kind,
                             const Selection *checked) {
  return TreeExporter(topology, kind, checked).run();
}

} // namespace prof::activity
