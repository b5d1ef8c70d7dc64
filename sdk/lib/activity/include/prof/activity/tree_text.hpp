// The device tree printed as topsprof's --query-activities, --query-events
// and --query-trace print it.
#pragma once

#include <prof/activity/selection.hpp>

#include <prof/gcu_driver.h>

#include <string>
#include <vector>

namespace prof::activity {

/// One string per line, no indentation, ranges "(a ~ b)":
///   ==== Device(0 ~ 1):
///   Cluster(0 ~ 3):
///   CDMA(0 ~ 3):DMA VC Execution,DMA Busy
///   ...
///   General(0 ~ 0):Task Pipeline,Launch Kernel,Operator
///   ==== Api Trace:                      (activities only)
///   RUNTIME(0 ~ 0):gcuInit,gcuMalloc,...
std::vector<std::string> format_tree(const prof_gcu_topology &topology, ItemKind kind);

/// Just the "==== Api Trace:" section (--query-trace).
std::vector<std::string> format_api_domains(const prof_gcu_topology &topology);

} // namespace prof::activity
