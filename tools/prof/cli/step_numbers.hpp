// The step numbers of a `--step N,N,...` option (prof stats, prof export).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace prof::cli {

/// "4, 7" → {4, 7}: unsigned step numbers, each once, in the order given.
/// Throws UsageError "COMMAND: --step 'x' is not a step number" (or "names
/// no step" for an empty list).
std::vector<uint64_t> step_numbers(const std::string &command, const std::string &list);

} // namespace prof::cli
