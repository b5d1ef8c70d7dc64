// How console and CSV summaries name a counter track: its own name, after
// its owner's when counters repeat across owners ("eth0 / RX rate").
#ifndef PROF_PLUGINS_SUMMARY_COUNTER_NAME_HPP
#define PROF_PLUGINS_SUMMARY_COUNTER_NAME_HPP

#include <prof/plugin.hpp>

#include <string>

namespace prof::summary {

inline std::string counter_name(const ExportHost &host, prof_track_id track) {
  const prof_track_desc *desc = host.track(track);
  std::string name = "track " + std::to_string(track);
  if (desc == nullptr) return name;
  if (desc->name != nullptr && desc->name[0] != '\0') name = desc->name;
  // Counters of a device, an interface or a thread repeat across them.
  const prof_track_desc *owner = desc->parent ? host.track(desc->parent) : nullptr;
  if (owner && owner->name && owner->kind != PROF_TRACK_PROCESS && owner->kind != PROF_TRACK_CUSTOM)
    name = std::string(owner->name) + " / " + name;
  return name;
}

} // namespace prof::summary

#endif
