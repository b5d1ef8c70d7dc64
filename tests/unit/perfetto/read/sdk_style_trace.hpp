// A trace written the way Perfetto's SDK writes one, built field by field:
// the tracing service's clock snapshot (BOOTTIME, MONOTONIC, REALTIME) on a
// sequence of its own, and one sequence per thread that clears its
// incremental state first, states its thread (and the process), makes an
// incremental clock 64 its default and its thread track the default track,
// and interns names, categories and annotation names and values as it
// first uses them. Three training steps: "step" > "forward", "backward" on
// the main thread, "load batch" on a loader thread, a "queue depth"
// counter, and flows from each step to its batch and back.
//
// Its bytes are checked in as the perfetto plugin's sample for
// prof-plugin-check (kSdkStyleTracePath); a test keeps the file and this
// builder the same.
#pragma once

#include <string>

namespace prof::perfetto::testing {

/// Where the sample is, from the source tree's root.
inline constexpr const char *kSdkStyleTracePath =
    "tests/unit/perfetto/fixtures/sdk_trace.perfetto-trace";

std::string sdk_style_trace();

} // namespace prof::perfetto::testing
