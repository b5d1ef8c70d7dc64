// Everything prof::activity offers: the GCU device tree listed, filtered by
// topsprof's strings and --devices, and exported to / imported from JSON.
#pragma once

#include <prof/activity/device_list.hpp>
#include <prof/activity/filter.hpp>
#include <prof/activity/selection.hpp>
#include <prof/activity/tree_json.hpp>
#include <prof/activity/tree_text.hpp>
