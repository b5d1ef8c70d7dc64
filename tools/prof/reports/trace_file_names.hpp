// What `prof import` reads from a trace's file name: the report's default
// name, and the rank a per-rank file name carries.
#pragma once

#include <optional>
#include <string>

namespace prof::tool {

/// The file name without its folder, a ".gz" and its trace extension
/// (".json", ".perfetto-trace", ".pftrace", ".perfetto", ".pb"): "r3" for
/// "traces/r3.json.gz".
std::string trace_stem(const std::string &path);

/// The report's name for a trace: its file name with ".profrep" in place of
/// ".json" or ".json.gz" ("traces/r3.json.gz" -> "r3.profrep").
std::string report_name_for_trace(const std::string &path);

/// The rank a trace's file name gives: "rank3", "rank_3", "r3", "x_r3",
/// "trace_3" (a number after '_' or '-' at the end); nullopt when none.
std::optional<int64_t> rank_in_file_name(const std::string &path);

} // namespace prof::tool
