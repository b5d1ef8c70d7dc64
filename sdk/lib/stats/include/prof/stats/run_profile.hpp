// What `prof diff` compares of one run: its operators, device work,
// collectives, Python functions, annotation ranges and steps, each as calls
// and time per sample, a sample being one step of one rank (or a rank's
// whole run, for work outside every step), and each with its place: the
// parent it runs in and its position there, which match an item renamed
// between two runs.
#pragma once

#include <prof/stats/stats_aggregator.hpp>
#include <prof/stats/track_classifier.hpp>

#include <prof/plugin.hpp>

#include <compare>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace prof::stats {

/// An item of a run: what it is ("operator", "kernel", "memcpy.htod",
/// "collective", "python", "range", "step") and its name, resolved to text
/// so that two runs' items compare.
struct ItemKey {
  std::string kind;
  std::string name;
  auto operator<=>(const ItemKey &) const = default;
};

/// One sample of an item: a step of a rank (step 0: outside every step).
struct SampleKey {
  uint64_t step = 0;
  std::string rank; ///< process_label() of the rank's process
  auto operator<=>(const SampleKey &) const = default;
};

/// An item's calls and their time in one sample.
struct SampleValue {
  uint64_t calls = 0;
  uint64_t time = 0; ///< ns
};

/// Where an item runs: the name of the operator or annotation range around
/// it (for device work, around the host call that launched it) and its
/// position among that parent call's children of its kind (launches, for
/// device work), counted from 0. The place seen most often over its calls.
struct ItemPlace {
  std::string parent; ///< "" when none is known
  uint32_t position = 0;
  auto operator<=>(const ItemPlace &) const = default;
};

struct RunItem {
  std::map<SampleKey, SampleValue> samples;
  ItemPlace place;
};

struct RunProfile {
  std::map<ItemKey, RunItem> items;
  /// The ranks that ran each step (steps: slices of kind annotation with a
  /// `step` argument, event.h); empty when the run has none.
  std::map<uint64_t, std::set<std::string>> steps;
};

/// Builds a RunProfile from a report's events, given in any order. Keeps
/// the slices it compares (about 48 bytes each) until finish().
class RunProfileBuilder {
public:
  explicit RunProfileBuilder(const ExportHost &host);

  void add(const prof_event *events, size_t count);
  /// Assigns each slice to its step and place; call once, after every add().
  RunProfile finish();

private:
  /// What a kept slice is to the builder.
  enum class Role : uint8_t {
    Item,   ///< compared, and a parent of what runs inside it (operators, ranges)
    Leaf,   ///< compared, never a parent (host collectives)
    Launch, ///< an API call with a correlation id: device work's link to its parent
    Device  ///< device work
  };
  struct Kept {
    uint64_t ts = 0, end = 0, id = 0;
    prof_track_id track = 0;
    prof_string_id name = 0;
    prof_string_id detail = 0; ///< operators: their pass; collectives: their communicator
    uint16_t kind = 0;         ///< the slice's well-known category
    Role role = Role::Item;
    uint8_t source = 0; ///< annotations: 1 for the python source's
  };
  /// The event's argument whose key reads `key`; nullptr if none.
  const prof_arg *arg_named(const prof_event &e, std::string_view key);
  /// The event's `key` argument if it is a string, else 0.
  prof_string_id string_arg(const prof_event &e, std::string_view key);
  ItemKey key_of(const Kept &slice);
  const std::string &rank_of(prof_track_id process);

  ExportHost host_;
  TrackClassifier tracks_;
  StatsAggregator steps_; ///< with StatsScope::steps only
  std::vector<Kept> kept_;
  std::unordered_map<prof_string_id, std::string> key_names_; ///< argument keys by id
  std::unordered_map<prof_string_id, bool> python_categories_;
  std::unordered_map<prof_track_id, std::string> ranks_;
};

} // namespace prof::stats
