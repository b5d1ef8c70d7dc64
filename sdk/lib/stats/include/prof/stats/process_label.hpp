// How the statistics name a process track (its name, shortened, and pid) and
// a thread track (its name and thread id).
#pragma once

#include <prof/launcher_rank.hpp>
#include <prof/plugin.hpp>

#include <string>
#include <string_view>

namespace prof::stats {

/// What `prof merge` appends to an input's top-level and process tracks'
/// names (" [node1 rank 3]"), "" when the name has none.
inline std::string_view merge_label(std::string_view name) {
  if (!name.ends_with(']')) return {};
  const size_t open = name.rfind(" [");
  return open == std::string_view::npos ? std::string_view{} : name.substr(open);
}

/// A process track's name as a person reads it in a table: each path in it
/// keeps its last part ("/usr/bin/python3 /job/train.py --out=/tmp/o" is
/// "python3 train.py --out=o"), and a merge label does not repeat the rank
/// the name already ends with ("train (rank 1) [node0 rank 1]" is
/// "train (rank 1) [node0]", "train (rank 1) [rank 1]" is "train (rank 1)").
inline std::string short_process_name(std::string_view name) {
  std::string_view label = merge_label(name);
  const std::string_view command = name.substr(0, name.size() - label.size());
  std::string out;
  for (size_t at = 0; at <= command.size();) {
    const size_t end = std::min(command.find(' ', at), command.size());
    const std::string_view word = command.substr(at, end - at);
    const size_t value = word.find('=') == std::string_view::npos ? 0 : word.find('=') + 1;
    const size_t slash = word.rfind('/');
    const bool path = slash != std::string_view::npos && slash >= value && slash + 1 < word.size();
    out += path ? std::string(word.substr(0, value)) + std::string(word.substr(slash + 1))
                : std::string(word);
    if (end < command.size()) out += ' ';
    at = end + 1;
  }
  if (const int rank = rank_in_track_name(command); rank >= 0) {
    const std::string said = "rank " + std::to_string(rank) + "]";
    if (label == " [" + said) return out;
    if (label.ends_with(" " + said))
      return out + std::string(label.substr(0, label.size() - said.size() - 1)) + "]";
  }
  return out + std::string(label);
}

/// "train.py (rank 1) [node1] (4242)"; "-" for no track.
inline std::string process_label(const ExportHost &host, prof_track_id track) {
  const prof_track_desc *desc = track == 0 ? nullptr : host.track(track);
  if (desc == nullptr) return "-";
  const std::string name = short_process_name(desc->name ? desc->name : "");
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
