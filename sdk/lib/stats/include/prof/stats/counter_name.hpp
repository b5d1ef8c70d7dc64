// How console and CSV summaries name a counter track: its own name, after
// its owners' when counters repeat across owners ("eth0 / RX rate",
// "GCU 0 / Cluster 1 / SIPPMC 2 / sip_busy_with_wait").
#pragma once

#include <prof/plugin.hpp>

#include <string>

namespace prof::stats {

inline std::string counter_name(const ExportHost &host, prof_track_id track) {
  const prof_track_desc *desc = host.track(track);
  std::string name = "track " + std::to_string(track);
  if (desc == nullptr) return name;
  if (desc->name != nullptr && desc->name[0] != '\0') name = desc->name;
  // Counters of a device, an interface or a thread repeat across them. An
  // owner whose name the name already starts with adds nothing ("SIPPMC"
  // above "SIPPMC 2", "GCU 0" above "GCU 0 utilization").
  const prof_track_desc *owner = desc->parent ? host.track(desc->parent) : nullptr;
  std::string_view first = name;
  for (int depth = 0; owner && owner->name && owner->kind != PROF_TRACK_PROCESS &&
                      owner->kind != PROF_TRACK_CUSTOM && depth < 8;
       ++depth) {
    const std::string_view owner_name = owner->name;
    if (first.substr(0, owner_name.size()) != owner_name)
      name = std::string(owner_name) + " / " + name;
    first = owner_name;
    owner = owner->parent ? host.track(owner->parent) : nullptr;
  }
  return name;
}

} // namespace prof::stats
