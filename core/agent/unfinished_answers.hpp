// Flight recorder dumps (--flight-recorder): a thread of the agent's sleeps
// on the region's unfinished_asked word and, each time prof bumps it, has
// the plugins emit their unfinished slices, then tells prof it answered.
// Between dumps it costs the application nothing: no wake-up, no write.
// With --hang-timeout it also wakes once a second to look at what is open
// (a probe), and the process pays for that look.
#pragma once

#include "core/agent/agent_state.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace prof::agent {

/// Answers prof's dumps for `state`'s region with `answer(now)` until
/// stop_unfinished_answers(state). False with `error` set when no thread
/// could be made.
/// With `probe`, also calls it once a second.
bool start_unfinished_answers(AgentState &state, std::function<void(uint64_t now)> answer,
                              std::function<void(uint64_t now)> probe, std::string *error);
/// The thread ends at its next wake-up, now; `state` must stay allocated.
void stop_unfinished_answers(AgentState &state);

} // namespace prof::agent
