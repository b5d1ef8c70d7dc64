// ProfileBuilder: a pprof profile (profile.proto) built up sample by sample
// and serialized whole. Each distinct frame text is one Function and one
// Location of the same id; a frame "name (file:line)", as prof names Python
// frames, also gives the function's file and the location's line.
#ifndef PROF_PLUGINS_PPROF_PROFILE_BUILDER_HPP
#define PROF_PLUGINS_PPROF_PROFILE_BUILDER_HPP

#include <prof/protobuf_wire.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace prof::pprof {

/// A sample's label: text, or a number with an optional unit.
struct SampleLabel {
  std::string key;
  std::string text; ///< used when not numeric
  int64_t number = 0;
  bool numeric = false;
  std::string unit; ///< of a number ("" none)
};

class ProfileBuilder {
public:
  ProfileBuilder() { string_index(""); } // string_table[0] is ""

  /// Adds a sample type ("cpu", "nanoseconds"); samples carry one value per type.
  void add_sample_type(std::string_view type, std::string_view unit);
  size_t sample_types() const { return sample_types_.size(); }
  /// The kind of event between samples and how many ("cpu", "nanoseconds", 10000000).
  void set_period(std::string_view type, std::string_view unit, int64_t period);
  void set_default_sample_type(std::string_view type);
  /// Wall-clock start (ns since the epoch) and length of the profile.
  void set_time(int64_t time_nanos, int64_t duration_nanos);
  void add_comment(std::string_view text);

  /// The location id of frame text `frame`, made on first use.
  uint64_t location(std::string_view frame);
  /// Adds a sample: `locations` leaf first, one value per sample type.
  void add_sample(std::span<const uint64_t> locations, std::span<const int64_t> values,
                  std::span<const SampleLabel> labels);
  uint64_t samples() const { return samples_count_; }

  /// The encoded profile (not compressed).
  std::string serialize() const;

private:
  uint64_t string_index(std::string_view text);

  std::vector<std::string> strings_;
  std::unordered_map<std::string, uint64_t> string_ids_;
  std::vector<std::pair<uint64_t, uint64_t>> sample_types_; ///< (type, unit)
  struct Frame {
    uint64_t name = 0, file = 0; ///< string indices
    int64_t line = 0;
  };
  std::vector<Frame> frames_; ///< by location id - 1
  std::unordered_map<std::string, uint64_t> frame_ids_;
  protobuf::ProtobufMessage samples_; ///< encoded Profile.sample fields
  uint64_t samples_count_ = 0;
  protobuf::ProtobufMessage header_; ///< period, time, comments, default type
  std::vector<uint64_t> comments_;
};

/// A frame's parts: "name (file:line)" gives file and line, any other text none.
struct FrameSource {
  std::string_view file;
  int64_t line = 0;
};
FrameSource frame_source(std::string_view frame);

} // namespace prof::pprof

#endif
