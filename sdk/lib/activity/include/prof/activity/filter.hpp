// topsprof's filter strings (--enable-activities, --enable-events):
//   rules separated by '|', levels by '/', a comma list within a level;
//   device/cluster/engine/item, device/engine/item for the device's own
//   engines, Api Trace/domain/function (activities only), or "all".
#pragma once

#include <prof/activity/selection.hpp>

#include <prof/gcu_driver.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prof::activity {

/// What `text` selects in the device tree. Names are case-insensitive; a
/// cluster or engine name may carry an instance index ("cluster1", "sdma2");
/// '*' is everything at its level; devices are numbers. Throws SelectionError
/// with one line that quotes `text` and points at the offending part: empty
/// rules or levels, a wrong number of levels, unknown names or out-of-range
/// indexes, names that match nothing within the rule, a rule that selects
/// nothing.
Selection parse_filter(const prof_gcu_topology &topology, ItemKind kind, std::string_view text);

/// The devices one rule of a filter names.
struct RuleDevices {
  std::string rule;              ///< the rule as written, trimmed
  bool all_devices = false;      ///< '*' at the device level, or "all"
  std::vector<uint32_t> devices; ///< sorted when !all_devices; empty for Api Trace rules
};

/// Checks `text` as parse_filter does and says which devices each rule names.
std::vector<RuleDevices> filter_rule_devices(const prof_gcu_topology &topology, ItemKind kind,
                                             std::string_view text);

} // namespace prof::activity
