// Turns the arguments records that follow events in a drained batch into
// argument sets: the drain's step between rings and sinks.
#pragma once

#include "core/catalog/args_table.hpp"

#include <prof/event.h>

#include <cstddef>

namespace prof::core {

/// Interns the arguments after each slice or instant of `events` into
/// `table`, sets the event's `args`, and removes the arguments records, in
/// place. Arguments with key 0 or an unknown type, and records with no event
/// before them, are dropped. Returns the events left.
size_t fold_args(prof_event *events, size_t count, ArgsTable &table);

} // namespace prof::core
