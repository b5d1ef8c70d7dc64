// A pprof profile read back for tests: gunzipped with zlib and decoded with
// a minimal protobuf reader, into the fields the exporter writes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace prof::pprof::testing {

struct ReadSample {
  std::vector<std::string> frames; ///< function names, leaf first
  std::vector<int64_t> values;
  std::map<std::string, std::string> labels; ///< numbers as decimal text
};

struct ReadFunction {
  std::string name, file;
  int64_t line = 0; ///< of its location
};

struct ReadProfile {
  std::vector<std::pair<std::string, std::string>> sample_types; ///< (type, unit)
  std::vector<ReadSample> samples;
  std::vector<ReadFunction> functions;
  std::pair<std::string, std::string> period_type;
  int64_t period = 0, time_nanos = 0, duration_nanos = 0;
  std::string default_sample_type;
  std::vector<std::string> comments;
  std::vector<std::string> strings;
};

/// The file at `path`, gunzipped.
std::optional<std::string> gunzip_file(const std::string &path);
/// `bytes` decoded as a profile; nullopt when they are no well-formed profile.
std::optional<ReadProfile> decode_profile(const std::string &bytes);

} // namespace prof::pprof::testing
