// The device tree as the JSON file of --export-activities/--export-events,
// which users edit (setting "isCheck" on leaves) and give back to
// --import-activities/--import-events.
#pragma once

#include <prof/activity/selection.hpp>

#include <prof/gcu_driver.h>

#include <string>
#include <string_view>

namespace prof::activity {

/// The whole tree, pretty-printed with 2-space indentation:
///   {"type": "root", "name": "activities", "children": [
///     {"type": "device", "name": "Device0", "index": 0, "children": [
///       {"type": "cluster", "name": "Cluster0", "index": 0, "children": [
///         {"type": "engine", "name": "CDMA0", "index": 0, "children": [
///           {"type": "activity", "name": "DMA VC Execution", "isCheck": false}, ...]}, ...]},
///       ..., {"type": "engine", "name": "General0", "index": 0, "children": [...]}]},
///     {"type": "api", "name": "Api Trace", "children": [           (activities only)
///       {"type": "domain", "name": "RUNTIME", "children": [
///         {"type": "activity", "name": "gcuInit", "isCheck": false}, ...]}]}]}
/// A leaf's isCheck is true when `checked` holds it.
std::string export_tree_json(const prof_gcu_topology &topology, ItemKind kind,
                             const Selection *checked = nullptr);

/// Reads an exported (and edited) tree back: the leaves whose isCheck is
/// true. `source` names the file in errors, which are one line each:
///   "tree.json:3:7: expected ..." for malformed JSON,
///   "tree.json: Device0/Cluster9: no such cluster in this device tree" for a
///   node that is not in this tree, lacks a field or has one of the wrong type.
/// Nodes left out of the file count as unchecked; "index" is optional but
/// must agree with the name; at most 16 MiB of text. Throws SelectionError,
/// also when nothing is checked.
Selection import_tree_json(const prof_gcu_topology &topology, ItemKind kind,
                           std::string_view json_text, std::string_view source);

} // namespace prof::activity
