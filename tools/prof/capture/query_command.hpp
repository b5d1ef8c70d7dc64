// --query-activities, --query-events, --query-trace: ask a source plugin
// what it can collect and print its answer.
#pragma once

#include "tools/prof/run_context.hpp"

namespace prof::tool {

/// Whether the command line is one of the queries.
bool is_query(const cli::CommandLine &command);
/// Creates the source that serves the query (gcu) and prints its answer.
int run_query(const RunContext &context);

} // namespace prof::tool
