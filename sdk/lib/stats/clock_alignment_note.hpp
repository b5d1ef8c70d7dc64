// What cross-rank reports say when the merge they read placed some reports
// on its timeline by their collective operations, not by a shared clock
// (the merge's "clock-alignment" header record).
#pragma once

#include <prof/plugin.hpp>

#include <string>

namespace prof::stats {

/// "clocks: N reports ... aligned on their collective operations (error at
/// most T) ...", or "" when the report's merge aligned none.
std::string clock_alignment_note(const ExportHost &host);

} // namespace prof::stats
