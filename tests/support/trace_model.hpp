// What the trace processor would make of a decoded trace: packet times on
// the trace clock (packet_times.hpp), names interned per packet sequence,
// each event's track (its own track_uuid, else its sequence's
// TrackEventDefaults.track_uuid), track descriptors, and slices rebuilt
// from BEGIN/END pairs the way trace_processor does it (all packets sorted by
// time, ties in file order; an END closes the innermost open slice of its
// track).
#ifndef PROF_TESTS_SUPPORT_TRACE_MODEL_HPP
#define PROF_TESTS_SUPPORT_TRACE_MODEL_HPP

#include "tests/support/decoded_trace.hpp"
#include "tests/support/packet_times.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace prof::testing {

struct ModelSlice {
  std::string track; ///< track name
  std::string name;
  uint64_t ts = 0;
  uint64_t dur = 0;
  int depth = 0;
  bool operator==(const ModelSlice &) const = default;
};

inline std::ostream &operator<<(std::ostream &os, const ModelSlice &s) {
  return os << "{" << s.track << " " << s.name << " ts=" << s.ts << " dur=" << s.dur
            << " depth=" << s.depth << "}";
}

struct TraceModel {
  PacketTimes times;
  std::map<const TextNode *, uint64_t> packet_time; ///< packets with a timestamp
  /// iid -> name, of every sequence (the exporter's iids are the same on each)
  std::map<std::string, std::string> event_names;
  std::map<std::string, std::string> categories;       ///< iid -> name
  std::map<const TextNode *, std::string> event_track; ///< track_event packet -> uuid
  std::map<std::string, const TextNode *> tracks_by_name;
  std::map<std::string, std::string> track_name_by_uuid;
  std::map<std::string, size_t> descriptor_packet; ///< uuid -> packet index
  std::vector<ModelSlice> slices;
  int unmatched_ends = 0;
  int duplicate_iids = 0;   ///< an iid interned twice on one sequence
  int conflicting_iids = 0; ///< an iid naming different texts on two sequences
  int unresolved_iids = 0;  ///< an iid used before its sequence interned it
  int duplicate_descriptors = 0;

  explicit TraceModel(const TextNode &trace) : times(trace) {
    const auto packets = trace.all("packet");
    for (const auto &[index, ts] : times.time)
      packet_time[packets[index]] = ts;
    struct Timed {
      uint64_t ts;
      size_t index;
      const TextNode *event;
    };
    std::vector<Timed> events;
    struct Sequence {
      std::set<std::string> names, categories;
      std::string default_track = "0";
    };
    std::map<std::string, Sequence> sequences;
    const auto intern = [&](std::set<std::string> &on_sequence,
                            std::map<std::string, std::string> &all, const TextNode &n) {
      duplicate_iids += !on_sequence.insert(n.get("iid")).second;
      const auto [it, added] = all.emplace(n.get("iid"), n.get("name"));
      conflicting_iids += !added && it->second != n.get("name");
    };
    for (size_t i = 0; i < packets.size(); ++i) {
      const TextNode &p = *packets[i];
      Sequence &sequence = sequences[p.get("trusted_packet_sequence_id")];
      if (p.get("sequence_flags") == "1" || p.get("sequence_flags") == "3") sequence = Sequence{};
      if (const TextNode *d = p.first("trace_packet_defaults"))
        if (const TextNode *t = d->first("track_event_defaults"))
          sequence.default_track = t->get("track_uuid");
      if (const TextNode *interned = p.first("interned_data")) {
        for (const TextNode *n : interned->all("event_names"))
          intern(sequence.names, event_names, *n);
        for (const TextNode *n : interned->all("event_categories"))
          intern(sequence.categories, categories, *n);
      }
      if (const TextNode *e = p.first("track_event")) {
        event_track[&p] = e->has("track_uuid") ? e->get("track_uuid") : sequence.default_track;
        unresolved_iids += e->has("name_iid") && !sequence.names.count(e->get("name_iid"));
        for (const TextNode *c : e->all("category_iids"))
          unresolved_iids += !sequence.categories.count(c->value);
      }
      if (const TextNode *d = p.first("track_descriptor")) {
        const std::string uuid = d->get("uuid");
        duplicate_descriptors += !descriptor_packet.emplace(uuid, i).second;
        tracks_by_name[d->get("name")] = d;
        track_name_by_uuid[uuid] = d->get("name");
      }
      const auto ts = times.time.find(i);
      if (const TextNode *e = p.first("track_event"); e != nullptr && ts != times.time.end())
        events.push_back({ts->second, i, e});
    }
    std::stable_sort(events.begin(), events.end(),
                     [](const Timed &a, const Timed &b) { return a.ts < b.ts; });
    std::map<std::string, std::vector<size_t>> open; // track uuid -> open slices
    for (const Timed &t : events) {
      const std::string type = t.event->get("type");
      const std::string uuid = event_track.at(packets[t.index]);
      auto &stack = open[uuid];
      if (type == "TYPE_SLICE_BEGIN" || type == "TYPE_INSTANT") {
        slices.push_back({track_name_by_uuid[uuid], event_names[t.event->get("name_iid")], t.ts, 0,
                          static_cast<int>(stack.size())});
        if (type == "TYPE_SLICE_BEGIN") stack.push_back(slices.size() - 1);
      } else if (type == "TYPE_SLICE_END") {
        if (stack.empty()) {
          ++unmatched_ends;
          continue;
        }
        slices[stack.back()].dur = t.ts - slices[stack.back()].ts;
        stack.pop_back();
      }
    }
  }

  /// Track uuid of a track_event packet.
  std::string track_uuid(const TextNode *packet) const { return event_track.at(packet); }
  /// Time of a packet on the trace clock.
  uint64_t time(const TextNode *packet) const { return packet_time.at(packet); }

  std::string uuid_of(const std::string &track) const {
    auto found = tracks_by_name.find(track);
    return found == tracks_by_name.end() ? "" : found->second->get("uuid");
  }
  const TextNode *descriptor(const std::string &track) const {
    auto found = tracks_by_name.find(track);
    return found == tracks_by_name.end() ? nullptr : found->second;
  }
  /// Slices sorted by track, then time, then depth (for comparisons).
  std::vector<ModelSlice> sorted_slices() const {
    std::vector<ModelSlice> sorted = slices;
    std::sort(sorted.begin(), sorted.end(), [](const ModelSlice &a, const ModelSlice &b) {
      return std::tie(a.track, a.ts, a.depth, a.name) < std::tie(b.track, b.ts, b.depth, b.name);
    });
    return sorted;
  }
};

} // namespace prof::testing

#endif
