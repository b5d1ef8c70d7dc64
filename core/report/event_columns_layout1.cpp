#include "core/report/event_columns_layout1.hpp"

#include "core/report/event_fields.hpp"

namespace prof::report::layout1 {
namespace {

enum Column : size_t {
  kType,
  kTrack,
  kTs,
  kDuration,
  kName,
  kCategory,
  kId,
  kFlags,
  kValue,
  kCounterId
};

uint32_t unzigzag32(uint32_t v) { return (v >> 1) ^ (0u - (v & 1u)); }

} // namespace

bool decode(uint64_t count, std::span<ByteReader> col, std::vector<prof_event> &out) {
  if (col.size() < kFirstColumnCount || col.size() > kColumnCount) return false;
  const bool has_counter_ids = col.size() > kCounterId;
  out.assign(static_cast<size_t>(count), prof_event{});
  const auto types = col[kType].bytes(static_cast<size_t>(count));
  uint32_t track = 0;
  uint64_t ts = 0;
  uint64_t id = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    prof_event &e = out[i];
    e.type = types[i];
    const uint8_t fields = kEventFields[e.type];
    track += unzigzag32(col[kTrack].varint32());
    e.track = track;
    ts += static_cast<uint64_t>(col[kTs].svarint());
    e.ts = ts;
    e.name = col[kName].varint32();
    e.category = col[kCategory].varint32();
    if (fields & kHasDuration) e.duration = col[kDuration].varint();
    if (fields & kHasId) {
      id += static_cast<uint64_t>(col[kId].svarint());
      e.id = id;
    }
    if (fields & kHasFlags) e.flags = col[kFlags].u8();
    if (fields & kHasValue) e.value = col[kValue].f64();
    if ((fields & kHasCounterId) && has_counter_ids) e.id = col[kCounterId].varint();
  }
  for (const auto &c : col)
    if (!c.ok() || !c.at_end()) return false;
  return true;
}

} // namespace prof::report::layout1
