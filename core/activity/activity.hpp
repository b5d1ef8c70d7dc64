// Everything prof::activity offers: the GCU device tree listed, filtered by
// topsprof's strings and --devices, and exported to / imported from JSON.
#pragma once

#include "core/activity/device_list.hpp"
#include "core/activity/filter.hpp"
#include "core/activity/selection.hpp"
#include "core/activity/tree_json.hpp"
#include "core/activity/tree_text.hpp"
