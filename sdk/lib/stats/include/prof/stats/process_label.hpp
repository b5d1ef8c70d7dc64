// How the statistics name a process track (its name and pid) and a thread
// track (its name and thread id).
#pragma once

#include <prof/plugin.hpp>

#include <string>

namespace prof::stats {

/// "train.py (rank 1) [node1 rank 1] (4242)"; "-" for no track.
inline std::string process_label(const ExportHost &host, prof_track_id track) {
  const prof_track_desc *desc = track == 0 ? nullptr : host.track(track);
  if (desc == nullptr) return "-";
  const std::string name = desc->name ? desc->name : "";
  return desc->pid > 0 ? name + " (" + std::to_string(desc->pid) + ")" : name;
}

/// "main (4242)": the name and thread id of a thread track.
inline std::string thread_label(const ExportHost &host, prof_track_id track) {
  const prof_track_desc *desc = host.track(track);
  if (desc == nullptr) return "track " + std::to_string(track);
  std::string text = desc->name != nullptr && desc->name[0] != '\0' ? desc->name : "thread";
  if (desc->tid != 0) text += " (" + std::to_string(desc->tid) + ")";
  return text;
}

} // namespace prof::stats
