// What the trace processor would make of a decoded trace: packet times on
// the trace clock (packet_times.hpp), interned names, track descriptors, and
// slices rebuilt from BEGIN/END pairs the way trace_processor does it (all
// packets sorted by time, ties in file order; an END closes the innermost
// open slice of its track).
#ifndef PROF_TESTS_PERFETTO_TRACE_MODEL_HPP
#define PROF_TESTS_PERFETTO_TRACE_MODEL_HPP

#include "decoded_trace.hpp"
#include "packet_times.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <ostream>
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
  std::map<std::string, std::string> event_names; ///< iid -> name
  std::map<std::string, std::string> categories;  ///< iid -> name
  std::map<std::string, const TextNode *> tracks_by_name;
  std::map<std::string, std::string> track_name_by_uuid;
  std::map<std::string, size_t> descriptor_packet; ///< uuid -> packet index
  std::vector<ModelSlice> slices;
  int unmatched_ends = 0;
  int duplicate_iids = 0;
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
    for (size_t i = 0; i < packets.size(); ++i) {
      const TextNode &p = *packets[i];
      if (const TextNode *interned = p.first("interned_data")) {
        for (const TextNode *n : interned->all("event_names"))
          duplicate_iids += !event_names.emplace(n->get("iid"), n->get("name")).second;
        for (const TextNode *n : interned->all("event_categories"))
          duplicate_iids += !categories.emplace(n->get("iid"), n->get("name")).second;
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
      const std::string uuid = t.event->get("track_uuid");
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
