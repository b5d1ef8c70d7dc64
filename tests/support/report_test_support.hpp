// Shared helpers of the report tests: a scratch folder, file bytes, events
// of every type and a small but complete sample report.
#pragma once

#include "core/report/report_model.hpp"
#include "tests/support/scratch_dir.hpp"
#include <prof/testing/test_events.hpp>

#include <prof/event.h>

#include <cstdint>
#include <string>
#include <vector>

namespace prof::report::testing {

using prof::testing::ScratchDir;

std::vector<uint8_t> read_bytes(const std::string &path);
void write_bytes(const std::string &path, const std::vector<uint8_t> &bytes);

using prof::testing::counter;
using prof::testing::flow;
using prof::testing::instant;
using prof::testing::sample;
using prof::testing::slice;

/// Byte-wise equality (keeps NaN payloads honest).
bool same_events(const std::vector<prof_event> &a, const std::vector<prof_event> &b);

Header sample_header();
std::vector<TrackRecord> sample_tracks();

/// Where each chunk of a written report lies.
struct ChunkSpan {
  uint64_t offset;
  uint64_t end;
  uint16_t type;
  uint64_t events; ///< for EVENTS chunks
};
/// The chunks of a valid report file, in order.
std::vector<ChunkSpan> chunk_spans(const std::string &path);

/// A small report: HEADER, STRINGS, TRACKS, 50 events in three EVENTS
/// chunks (20, 20, 10), STACKS, CLOCKS, DROPS, END.
struct SampleReport {
  std::string path;
  std::vector<prof_event> events;
  std::vector<ChunkSpan> chunks;
};
SampleReport write_sample_report(const std::string &path);

} // namespace prof::report::testing
