// The passes that make an imported trace's events what the torch source
// records (docs/pytorch.md's table): each operator's pass and self time,
// a "step" slice for each ProfilerStep#N, each collective's communicator
// and sequence, and flows with ids of the report's own.
#pragma once

#include "read/imported_trace.hpp"

namespace prof::kineto {

/// Gives each operator "pass" ("backward" for an autograd node, its
/// evaluation and what they call on their thread, else "forward") and
/// "self" (its time less that of the operators directly inside it on its
/// thread), in front of its other arguments.
void add_operator_passes(ImportedTrace &trace);

/// Adds an annotation slice "step" (category "torch/step", argument "step"
/// N) over each range named "ProfilerStep#N".
void add_steps(ImportedTrace &trace);

/// Gives each collective its communicator, sequence, operation and what
/// record_param_comms says of it: the backend's collectives
/// ("gloo:all_reduce") are the communication slices, their c10d operators
/// get the same communicator and sequence and a flow to them; a trace
/// without backend collectives has its c10d operators as the communication
/// slices. `trace.distributed.rank` is this process's global rank.
void add_collectives(ImportedTrace &trace);

/// Gives the flows ids of their own, one per (category, id) of the trace
/// ("ac2g" and "fwdbwd" number theirs apart), and drops a flow end whose
/// other end the trace lacks. Runs last.
void number_flows(ImportedTrace &trace);

/// All of the above, in their order, on a trace whose rank is set.
void run_trace_passes(ImportedTrace &trace);

} // namespace prof::kineto
