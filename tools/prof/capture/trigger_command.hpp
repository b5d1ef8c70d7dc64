// `prof trigger --trigger-dir DIR ... -o NAME`: writes a capture request
// (core/control/trigger_request.hpp) into the folder that the agents of a
// job watch (PROF_TRIGGER_DIR), on every host that shares it. Each host's
// first agent to see it starts `prof attach --all` with its settings.
#pragma once

#include "tools/prof/run_context.hpp"

namespace prof::tool {

/// Returns the exit code; throws cli::UsageError for bad input.
int run_trigger(const RunContext &context);

} // namespace prof::tool
