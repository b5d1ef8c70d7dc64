// Payload encoding of the non-event chunks (HEADER, STRINGS, TRACKS, STACKS,
// CLOCKS, DROPS, END). Encoders append to a byte vector; decoders check every
// length and count against the payload and return false on anything malformed.
#pragma once

#include "core/report/report_model.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace prof::report {

/// HEADER payload: u32 version first (so any version can be recognised), then the fields.
void encode_header(const Header &header, uint32_t format_version, std::vector<uint8_t> &out);
/// The version of a HEADER payload; false when it is too short to hold one.
bool peek_format_version(std::span<const uint8_t> payload, uint32_t &version);
/// Bytes after the known fields are ignored (room for later minor additions).
bool decode_header(std::span<const uint8_t> payload, Header &header);

/// STRINGS payload: first id, count, then length-prefixed texts with ids first_id, first_id+1, ...
void encode_strings(uint32_t first_id, std::span<const std::string_view> texts,
                    std::vector<uint8_t> &out);
bool decode_strings(std::span<const uint8_t> payload, uint32_t &first_id,
                    std::vector<std::string> &texts);

void encode_tracks(std::span<const TrackRecord> tracks, std::vector<uint8_t> &out);
bool decode_tracks(std::span<const uint8_t> payload, std::vector<TrackRecord> &tracks);

/// TRACK_FLAGS payload: count, then (track id, flags) pairs of the tracks
/// in `tracks` whose flags are not 0. Read after the tracks they name.
void encode_track_flags(std::span<const TrackRecord> tracks, std::vector<uint8_t> &out);
bool decode_track_flags(std::span<const uint8_t> payload,
                        std::vector<std::pair<uint32_t, uint32_t>> &flags);

void encode_stacks(std::span<const StackRecord> stacks, std::vector<uint8_t> &out);
bool decode_stacks(std::span<const uint8_t> payload, std::vector<StackRecord> &stacks);

/// ARGS payload: count, then per set its id, its size and each argument as
/// key, type (u8) and value (svarint, varint, or the double's 8 bytes).
void encode_args(std::span<const ArgsRecord> sets, std::vector<uint8_t> &out);
/// False on a malformed payload or an argument type it does not know.
bool decode_args(std::span<const uint8_t> payload, std::vector<ArgsRecord> &sets);

void encode_clock_domains(std::span<const ClockDomainRecord> clocks, std::vector<uint8_t> &out);
bool decode_clock_domains(std::span<const uint8_t> payload, std::vector<ClockDomainRecord> &clocks);

void encode_drops(std::span<const DropRecord> drops, std::vector<uint8_t> &out);
bool decode_drops(std::span<const uint8_t> payload, std::vector<DropRecord> &drops);

void encode_footer(const Footer &footer, std::vector<uint8_t> &out);
bool decode_footer(std::span<const uint8_t> payload, Footer &footer);

} // namespace prof::report
