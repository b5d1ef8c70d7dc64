// Tells exporters whether a track belongs to a device (a DEVICE, CLUSTER or
// ENGINE track or anything below one) and which DEVICE track holds it.
// Answers are cached per track id, so asking per event stays O(1): in a
// table indexed by id for the small ids hosts hand out, in a map beyond.
// Shared by the summary and trace exporters and `prof stats`.
#pragma once

#include <prof/plugin.hpp>

#include <unordered_map>
#include <vector>

namespace prof::stats {

/// Where a track sits in the track tree.
struct TrackPlace {
  bool device_side = false;                 ///< on or below a device, cluster or engine track
  prof_track_id device = 0;                 ///< the enclosing DEVICE track, 0 if none
  prof_track_kind kind = PROF_TRACK_CUSTOM; ///< kind of the track itself
};

class TrackClassifier {
public:
  explicit TrackClassifier(const ExportHost &host) : host_(host) {}

  TrackPlace place(prof_track_id track) {
    if (track < kTableIds) {
      if (track < known_.size() && known_[track]) return table_[track];
      if (track >= known_.size()) {
        known_.resize(track + 1, false);
        table_.resize(track + 1);
      }
      known_[track] = true;
      return table_[track] = classify(track);
    }
    auto found = cache_.find(track);
    if (found != cache_.end()) return found->second;
    return cache_.emplace(track, classify(track)).first->second;
  }

private:
  TrackPlace classify(prof_track_id track) const {
    TrackPlace place;
    const prof_track_desc *desc = host_.track(track);
    if (desc != nullptr) place.kind = desc->kind;
    // Bounded walk: a malformed report with a parent cycle must not hang us.
    for (int depth = 0; desc != nullptr && depth < 64; ++depth) {
      switch (desc->kind) {
      case PROF_TRACK_DEVICE:
        place.device_side = true;
        place.device = track;
        return place;
      case PROF_TRACK_CLUSTER:
      case PROF_TRACK_ENGINE:
        place.device_side = true;
        break;
      default:
        break;
      }
      if (desc->parent == 0 || desc->parent == track) break;
      track = desc->parent;
      desc = host_.track(track);
    }
    return place;
  }

  static constexpr prof_track_id kTableIds = 1 << 16;

  ExportHost host_;
  std::vector<TrackPlace> table_; // by id, below kTableIds
  std::vector<bool> known_;
  std::unordered_map<prof_track_id, TrackPlace> cache_;
};

} // namespace prof::stats
