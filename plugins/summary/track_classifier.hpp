// Tells exporters whether a track belongs to a device (a DEVICE, CLUSTER or
// ENGINE track or anything below one) and which DEVICE track holds it.
// Answers are cached per track id, so asking per event stays O(1).
// Shared by the summary and trace exporters.
#ifndef PROF_PLUGINS_TRACK_CLASSIFIER_HPP
#define PROF_PLUGINS_TRACK_CLASSIFIER_HPP

#include <prof/plugin.hpp>

#include <unordered_map>

namespace prof::console {

/// Where a track sits in the track tree.
struct TrackPlace {
  bool device_side = false;                 ///< on or below a device, cluster or engine track
  prof_track_id device = 0;                 ///< the enclosing DEVICE track, 0 if none
  prof_track_kind kind = PROF_TRACK_CUSTOM; ///< kind of the track itself
};

class TrackClassifier {
public:
  explicit TrackClassifier(const ExportHost &host) : host_(host) {}

  const TrackPlace &place(prof_track_id track) {
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

  ExportHost host_;
  std::unordered_map<prof_track_id, TrackPlace> cache_;
};

} // namespace prof::console

#endif
