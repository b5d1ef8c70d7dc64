#include <prof/activity/tree_json.hpp>

#include <prof/activity/device_tree.hpp>
#include <prof/activity/json_reader.hpp>
#include <prof/activity/name_match.hpp>
#include <prof/activity/text_piece.hpp>

#include <optional>

namespace prof::activity {
namespace {

/// Far above any real tree (a few hundred bytes per leaf), and low enough
/// that a wrong file given by mistake cannot make the reader use gigabytes.
constexpr std::size_t kMaxTreeBytes = std::size_t{16} << 20;

/// The index in `name` = `prefix` + canonical decimal ("Cluster12"), if any.
std::optional<uint64_t> suffix_index(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view digits = name.substr(prefix.size());
  const std::optional<uint64_t> index = parse_decimal(digits);
  if (!index || std::to_string(*index) != digits) return std::nullopt;
  return index;
}

class TreeImporter {
public:
  TreeImporter(const prof_gcu_topology &topology, ItemKind kind, std::string_view source)
      : tree_(topology), kind_(kind), source_(one_line(source)) {}

  Selection run(std::string_view text) {
    if (text.size() > kMaxTreeBytes)
      throw SelectionError(source_ + ": " + std::to_string(text.size()) +
                           " bytes; a device tree file holds at most " +
                           std::to_string(kMaxTreeBytes >> 20) + " MiB");
    JsonValue root;
    try {
      root = parse_json(text);
    } catch (const JsonSyntaxError &e) {
      throw SelectionError(source_ + ":" + std::to_string(e.position.line) + ":" +
                           std::to_string(e.position.column) + ": " + e.what());
    }
    read_root(root);
    normalize(out_);
    if (out_.empty())
      throw SelectionError(source_ + ": selects nothing: no " + std::string(kind_name(kind_)) +
                           " has \"isCheck\": true");
    return out_;
  }

private:
  [[noreturn]] void fail(const std::string &path, const std::string &message) const {
    throw SelectionError(source_ + ": " + (path.empty() ? "root" : path) + ": " + message);
  }

  static std::string join(const std::string &path, std::string_view name) {
    return path.empty() ? std::string(name) : path + "/" + std::string(name);
  }

  void expect_object(const std::string &path, const JsonValue &node) const {
    if (node.type != JsonType::Object)
      fail(path, "expected an object, found " + std::string(json_type_name(node.type)));
  }

  const JsonValue &field(const std::string &path, const JsonValue &node, std::string_view key,
                         JsonType type) const {
    const JsonValue *value = node.find(key);
    if (!value) fail(path, "missing \"" + std::string(key) + "\"");
    if (value->type != type)
      fail(path, "\"" + std::string(key) + "\" must be " + std::string(json_type_name(type)) +
                     ", found " + std::string(json_type_name(value->type)));
    return *value;
  }

  const std::string &string_field(const std::string &path, const JsonValue &node,
                                  std::string_view key) const {
    return field(path, node, key, JsonType::String).string;
  }

  /// Each child of `node` with its path: its name when it has one, else "children[i]".
  template <typename Visit>
  void children(const std::string &path, const JsonValue &node, Visit visit) {
    const JsonValue &list = field(path, node, "children", JsonType::Array);
    for (std::size_t i = 0; i < list.array.size(); ++i) {
      const JsonValue &child = list.array[i];
      const JsonValue *name = child.type == JsonType::Object ? child.find("name") : nullptr;
      const std::string child_path = join(path, name && name->type == JsonType::String
                                                    ? one_line(name->string)
                                                    : "children[" + std::to_string(i) + "]");
      expect_object(child_path, child);
      visit(child_path, child, string_field(child_path, child, "type"));
    }
  }

  /// "index", when present, must agree with the index in the name.
  void check_index(const std::string &path, const JsonValue &node, uint64_t index) const {
    const JsonValue *value = node.find("index");
    if (value && (value->type != JsonType::Number || value->number != static_cast<double>(index)))
      fail(path, "\"index\" must be " + std::to_string(index) + " as in the name");
  }

  [[noreturn]] void wrong_type(const std::string &path, const std::string &type,
                               std::string_view expected) const {
    fail(path, "a node of type \"" + one_line(type) + "\" here; expected " + std::string(expected));
  }

  void read_root(const JsonValue &root) {
    const std::string path; // "root" in messages
    expect_object(path, root);
    const std::string &type = string_field(path, root, "type");
    if (type != "root") wrong_type(path, type, "\"root\"");
    const std::string &name = string_field(path, root, "name");
    if (name != kind_plural(kind_))
      fail(path, "\"name\" is \"" + one_line(name) + "\"; this file must hold " +
                     std::string(kind_plural(kind_)) + " (\"name\": \"" +
                     std::string(kind_plural(kind_)) + "\")");
    const std::string_view expected =
        kind_ == ItemKind::Activity ? "\"device\" or \"api\"" : "\"device\"";
    children("", root,
             [&](const std::string &child_path, const JsonValue &child, const std::string &t) {
               if (t == "device")
                 read_device(child_path, child);
               else if (t == "api" && kind_ == ItemKind::Activity)
                 read_api(child_path, child);
               else
                 wrong_type(child_path, t, expected);
             });
  }

  void read_device(const std::string &path, const JsonValue &node) {
    const std::optional<uint64_t> d = suffix_index(string_field(path, node, "name"), "Device");
    if (!d || *d >= tree_.device_count())
      fail(path, "no such device in this device tree (devices: Device" +
                     index_span(tree_.device_count()) + ")");
    check_index(path, node, *d);
    const uint32_t device = static_cast<uint32_t>(*d);
    children(path, node,
             [&](const std::string &child_path, const JsonValue &child, const std::string &t) {
               if (t == "cluster")
                 read_cluster(child_path, child, device);
               else if (t == "engine")
                 read_engine(child_path, child, device, kDeviceGroup, 0);
               else
                 wrong_type(child_path, t, "\"cluster\" or \"engine\"");
             });
  }

  void read_cluster(const std::string &path, const JsonValue &node, uint32_t device) {
    const std::string &name = string_field(path, node, "name");
    std::vector<std::string_view> names;
    for (uint32_t g = 0; g < tree_.group_count(); ++g) {
      names.push_back(tree_.group_name(g));
      const std::optional<uint64_t> gi = suffix_index(name, tree_.group_name(g));
      if (!gi) continue;
      if (*gi >= tree_.group_instances(g))
        fail(path, "no such cluster in this device tree (" + std::string(tree_.group_name(g)) +
                       " has " + index_span(tree_.group_instances(g)) + ")");
      check_index(path, node, *gi);
      const auto group = static_cast<int32_t>(g);
      const auto group_index = static_cast<uint32_t>(*gi);
      children(path, node,
               [&](const std::string &child_path, const JsonValue &child, const std::string &t) {
                 if (t != "engine") wrong_type(child_path, t, "\"engine\"");
                 read_engine(child_path, child, device, group, group_index);
               });
      return;
    }
    fail(path, "no such cluster in this device tree (clusters: " + brief_list(names) + ")");
  }

  void read_engine(const std::string &path, const JsonValue &node, uint32_t device, int32_t group,
                   uint32_t group_index) {
    const std::string &name = string_field(path, node, "name");
    std::vector<std::string_view> names;
    for (uint32_t e : tree_.engines_in(group)) {
      names.push_back(tree_.engine_name(e));
      const std::optional<uint64_t> ei = suffix_index(name, tree_.engine_name(e));
      if (!ei) continue;
      if (*ei >= tree_.engine_instances(e))
        fail(path, "no such engine in this device tree (" + std::string(tree_.engine_name(e)) +
                       " has " + index_span(tree_.engine_instances(e)) + ")");
      check_index(path, node, *ei);
      const auto engine_index = static_cast<uint32_t>(*ei);
      children(path, node,
               [&](const std::string &leaf_path, const JsonValue &leaf, const std::string &t) {
                 const std::optional<uint32_t> item = read_leaf(leaf_path, leaf, t, e);
                 if (item)
                   out_.items.push_back({device, group, group_index, e, engine_index, *item});
               });
      return;
    }
    const std::string where =
        group == kDeviceGroup ? "the device itself" : std::string(tree_.group_name(group));
    fail(path, "no such engine in " + where + " (engines: " + brief_list(names) + ")");
  }

  /// The index of a checked leaf among the engine's items; nullopt when unchecked.
  std::optional<uint32_t> read_leaf(const std::string &path, const JsonValue &leaf,
                                    const std::string &type, uint32_t engine) {
    if (type != kind_name(kind_))
      wrong_type(path, type, "\"" + std::string(kind_name(kind_)) + "\"");
    const std::string &name = string_field(path, leaf, "name");
    const bool check = field(path, leaf, "isCheck", JsonType::Bool).boolean;
    std::vector<std::string_view> names;
    for (uint32_t i = 0; i < tree_.item_count(engine, kind_); ++i) {
      names.push_back(tree_.item_name(engine, kind_, i));
      if (names.back() == name) return check ? std::optional<uint32_t>(i) : std::nullopt;
    }
    fail(path, "no such " + std::string(kind_name(kind_)) + " of " +
                   std::string(tree_.engine_name(engine)) + " (" + brief_list(names) + ")");
  }

  void read_api(const std::string &path, const JsonValue &node) {
    if (string_field(path, node, "name") != "Api Trace")
      fail(path, "expected \"name\": \"Api Trace\"");
    children(path, node,
             [&](const std::string &domain_path, const JsonValue &domain, const std::string &t) {
               if (t != "domain") wrong_type(domain_path, t, "\"domain\"");
               const std::string &name = string_field(domain_path, domain, "name");
               std::vector<std::string_view> names;
               for (uint32_t d = 0; d < tree_.domain_count(); ++d) {
                 names.push_back(tree_.domain_name(d));
                 if (names.back() == name) return read_functions(domain_path, domain, d);
               }
               fail(domain_path, "no such API domain (domains: " + brief_list(names) + ")");
             });
  }

  void read_functions(const std::string &path, const JsonValue &node, uint32_t domain) {
    children(path, node,
             [&](const std::string &leaf_path, const JsonValue &leaf, const std::string &t) {
               if (t != "activity") wrong_type(leaf_path, t, "\"activity\"");
               const std::string &name = string_field(leaf_path, leaf, "name");
               const bool check = field(leaf_path, leaf, "isCheck", JsonType::Bool).boolean;
               std::vector<std::string_view> names;
               for (uint32_t f = 0; f < tree_.function_count(domain); ++f) {
                 names.push_back(tree_.function_name(domain, f));
                 if (names.back() == name) {
                   if (check) out_.apis.push_back({domain, f});
                   return;
                 }
               }
               fail(leaf_path, "no such function of " + std::string(tree_.domain_name(domain)) +
                                   " (" + brief_list(names) + ")");
             });
  }

  DeviceTree tree_;
  ItemKind kind_;
  std::string source_;
  Selection out_;
};

} // namespace

Selection import_tree_json(const prof_gcu_topology &topology, ItemKind kind,
                           std::string_view json_text, std::string_view source) {
  return TreeImporter(topology, kind, source).run(json_text);
}

} // namespace prof::activity
