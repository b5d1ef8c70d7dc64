// Which rank and node a process track is: from the label `prof merge` adds
// to its name (" [node7 rank 56]"), else from the rank a launcher put in
// it (" (rank 56)").
#pragma once

#include <prof/launcher_rank.hpp>
#include <prof/stats/process_label.hpp>

#include <string>
#include <string_view>

namespace prof::stats {

struct RankIdentity {
  int rank = -1;    ///< -1: none named
  std::string node; ///< "" when not known
};

/// The rank and node a process track's name says.
inline RankIdentity rank_identity(std::string_view name) {
  RankIdentity identity;
  std::string_view label = merge_label(name); // " [node7 rank 56]"
  const std::string_view command = name.substr(0, name.size() - label.size());
  if (!label.empty()) {
    label = label.substr(2, label.size() - 3); // "node7 rank 56"
    const size_t at = label.rfind("rank ");
    if (at != std::string_view::npos && (at == 0 || label[at - 1] == ' ')) {
      identity.rank = rank_in_track_name(" (" + std::string(label.substr(at)) + ")");
      identity.node = std::string(label.substr(0, at == 0 ? 0 : at - 1));
    }
  }
  if (identity.rank < 0) identity.rank = rank_in_track_name(command);
  return identity;
}

} // namespace prof::stats
