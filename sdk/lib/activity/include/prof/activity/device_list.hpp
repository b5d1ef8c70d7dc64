// topsprof's --devices option and its rule that the devices it lists agree
// with the devices a filter string names.
#pragma once

#include <prof/activity/selection.hpp>

#include <prof/gcu_driver.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace prof::activity {

/// "0,2": device numbers separated by commas, each in range, none twice.
/// Returns them sorted. Throws SelectionError quoting the text and the
/// offending part.
std::vector<uint32_t> parse_device_list(const prof_gcu_topology &topology, std::string_view text);

/// Applies --devices to what `filter_text` (given to `filter_option`, e.g.
/// "--enable-activities") selected. Unless a rule names every device ('*' or
/// "all"), the two must agree: a rule naming a device the list leaves out, or
/// a listed device that no rule covers, throws SelectionError naming both
/// options. Returns `selection` without the items of unlisted devices.
Selection restrict_to_devices(const prof_gcu_topology &topology, ItemKind kind,
                              std::string_view filter_text, const Selection &selection,
                              const std::vector<uint32_t> &devices, std::string_view filter_option);

} // namespace prof::activity
