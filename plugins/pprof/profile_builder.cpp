#include "profile_builder.hpp"

#include "pprof_fields.hpp"

#include <charconv>

namespace prof::pprof {

namespace f = fields;
using protobuf::ProtobufMessage;

namespace {

ProtobufMessage value_type(uint64_t type, uint64_t unit) {
  ProtobufMessage m;
  m.varint_field(f::value_type::kType, type);
  m.varint_field(f::value_type::kUnit, unit);
  return m;
}

} // namespace

FrameSource frame_source(std::string_view frame) {
  if (!frame.ends_with(')')) return {};
  const size_t open = frame.rfind(" (");
  const size_t colon = frame.rfind(':');
  if (open == std::string_view::npos || colon == std::string_view::npos || colon < open) return {};
  const std::string_view digits = frame.substr(colon + 1, frame.size() - colon - 2);
  int64_t line = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), line);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.empty()) return {};
  return {frame.substr(open + 2, colon - open - 2), line};
}

uint64_t ProfileBuilder::string_index(std::string_view text) {
  const auto [it, added] = string_ids_.try_emplace(std::string(text), strings_.size());
  if (added) strings_.emplace_back(text);
  return it->second;
}

void ProfileBuilder::add_sample_type(std::string_view type, std::string_view unit) {
  sample_types_.emplace_back(string_index(type), string_index(unit));
}

void ProfileBuilder::set_period(std::string_view type, std::string_view unit, int64_t period) {
  header_.message(f::profile::kPeriodType, value_type(string_index(type), string_index(unit)));
  header_.int_field(f::profile::kPeriod, period);
}

void ProfileBuilder::set_default_sample_type(std::string_view type) {
  header_.varint_field(f::profile::kDefaultSampleType, string_index(type));
}

void ProfileBuilder::set_time(int64_t time_nanos, int64_t duration_nanos) {
  header_.int_field(f::profile::kTimeNanos, time_nanos);
  header_.int_field(f::profile::kDurationNanos, duration_nanos);
}

void ProfileBuilder::add_comment(std::string_view text) { comments_.push_back(string_index(text)); }

uint64_t ProfileBuilder::location(std::string_view frame) {
  const auto [it, added] = frame_ids_.try_emplace(std::string(frame), frames_.size() + 1);
  if (added) {
    const FrameSource source = frame_source(frame);
    frames_.push_back({string_index(frame), string_index(source.file), source.line});
  }
  return it->second;
}

void ProfileBuilder::add_sample(std::span<const uint64_t> locations,
                                std::span<const int64_t> values,
                                std::span<const SampleLabel> labels) {
  ProtobufMessage sample;
  sample.packed_field(f::sample::kLocationId, locations);
  std::vector<uint64_t> encoded(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    encoded[i] = static_cast<uint64_t>(values[i]);
  sample.packed_field(f::sample::kValue, encoded);
  for (const SampleLabel &l : labels) {
    ProtobufMessage label;
    label.varint_field(f::label::kKey, string_index(l.key));
    if (l.numeric) {
      label.int_field(f::label::kNum, l.number);
      if (!l.unit.empty()) label.varint_field(f::label::kNumUnit, string_index(l.unit));
    } else {
      label.varint_field(f::label::kStr, string_index(l.text));
    }
    sample.message(f::sample::kLabel, label);
  }
  samples_.message(f::profile::kSample, sample);
  ++samples_count_;
}

std::string ProfileBuilder::serialize() const {
  ProtobufMessage out;
  for (const auto &[type, unit] : sample_types_)
    out.message(f::profile::kSampleType, value_type(type, unit));
  std::string bytes(out.take());
  bytes += samples_.bytes();
  ProtobufMessage tables;
  for (size_t i = 0; i < frames_.size(); ++i) {
    const uint64_t id = i + 1;
    ProtobufMessage function;
    function.varint_field(f::function::kId, id);
    function.varint_field(f::function::kName, frames_[i].name);
    // No system_name: pprof would "simplify" one with '<' or '::' in it,
    // dropping "(...)" and "<...>" (Python's "<module> (a.py:3)", C++
    // templates), and names would no longer match prof's.
    function.varint_field(f::function::kFilename, frames_[i].file);
    tables.message(f::profile::kFunction, function);
    ProtobufMessage line;
    line.varint_field(f::line::kFunctionId, id);
    line.int_field(f::line::kLine, frames_[i].line);
    ProtobufMessage location;
    location.varint_field(f::location::kId, id);
    location.message(f::location::kLine, line);
    tables.message(f::profile::kLocation, location);
  }
  for (const std::string &s : strings_)
    tables.bytes_field(f::profile::kStringTable, s);
  tables.packed_field(f::profile::kComment, comments_);
  bytes += tables.bytes();
  bytes += header_.bytes();
  return bytes;
}

} // namespace prof::pprof
