// Reading EVENTS payloads of the first layout, which reports of format 1
// hold (event_columns.hpp describes the layout written now):
//
//   varint count | varint column count | varint byte length of each column | columns
//
// Columns, in order, each for the event types that carry the field
// (event_fields.hpp):
//   type      u8 each
//   track     zigzag varint of the 32-bit wrapping delta from the previous event
//   ts        zigzag varint of the 64-bit wrapping delta from the previous event
//   duration  varint
//   name      varint
//   category  varint
//   id        zigzag varint of the delta from the previous id
//   flags     u8
//   value     8 raw bytes of the double
//   counter id varint (absent from the earliest payloads: such counters read id 0)
// Deltas restart at zero in every payload.
#pragma once

#include <prof/byte_codec.hpp>

#include <prof/event.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace prof::report::layout1 {

inline constexpr size_t kColumnCount = 10;
/// Columns of the earliest payloads, before counter ids.
inline constexpr size_t kFirstColumnCount = 9;

/// Decodes `count` events from `columns` (kFirstColumnCount or kColumnCount
/// of them) into `out`; false on malformed columns.
bool decode(uint64_t count, std::span<ByteReader> columns, std::vector<prof_event> &out);

} // namespace prof::report::layout1
