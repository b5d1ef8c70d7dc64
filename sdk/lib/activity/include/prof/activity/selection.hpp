// What to record on a GCU: activities or events of engine instances, and
// traced API functions, as a sorted set the driver can be handed directly.
#pragma once

#include <prof/gcu_driver.h>

#include <stdexcept>
#include <string_view>
#include <vector>

namespace prof::activity {

/// Activities (slices an engine records) or events (counters it samples).
enum class ItemKind { Activity, Event };

/// "activity" or "event".
std::string_view kind_name(ItemKind kind);
/// "activities" or "events".
std::string_view kind_plural(ItemKind kind);

/// What to record.
struct Selection {
  /// Sorted by (device, group, group_index, engine, engine_index, item), unique.
  std::vector<prof_gcu_item> items;
  /// Sorted by (domain, function), unique; only for ItemKind::Activity.
  std::vector<prof_gcu_api_item> apis;

  bool empty() const { return items.empty() && apis.empty(); }
};

/// A filter, device list or JSON tree that cannot be used; what() is one line
/// meant for the user.
class SelectionError : public std::runtime_error {
public:
  using runtime_error::runtime_error;
};

/// Strict weak orders and equality for the driver's item structs.
bool item_less(const prof_gcu_item &a, const prof_gcu_item &b);
bool item_equal(const prof_gcu_item &a, const prof_gcu_item &b);
bool api_less(const prof_gcu_api_item &a, const prof_gcu_api_item &b);
bool api_equal(const prof_gcu_api_item &a, const prof_gcu_api_item &b);

/// Sorts both lists and removes duplicates.
void normalize(Selection &selection);

bool operator==(const Selection &a, const Selection &b);

} // namespace prof::activity
