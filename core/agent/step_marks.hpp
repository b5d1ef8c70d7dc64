// prof_step() inside the application: the process's step count, kept from
// the agent's start (also while it waits for prof to attach), each step as
// a range on the marking thread's track while prof is attached, and the
// boundaries prof's step-aligned windows (--capture-steps) follow.
#pragma once

#include "core/agent/agent_state.hpp"

#include <cstdint>

namespace prof::agent {

/// Where step 1 begins: the agent's start in this process.
void steps_begin_now();
/// A step ended (prof_step()): counts it and, with prof attached, records
/// it and posts the boundary when prof follows steps.
void mark_step();
/// Whether mark_step() was called in this process.
bool steps_marked();
/// At attach: tells prof which step this process is in, when prof follows steps.
void post_step_position(AgentState &state);

} // namespace prof::agent
