// Captures made up for exporters: a catalog (tracks of every kind the event
// model names, strings, a stack, argument sets) and events in time order
// within each batch, as the capture runner hands them over.
#pragma once

#include "core/catalog/catalog.hpp"

#include <prof/event.h>

#include <cstddef>
#include <vector>

namespace prof::plugin_check {

struct GeneratedCapture {
  core::Catalog catalog;
  std::vector<prof_event> events;
};

/// A catalog with nothing in it and no events.
void make_empty_capture(GeneratedCapture &capture);
/// One event of each type: a slice with arguments and a category kind, an
/// instant, a memory instant, a counter, a CPU sample, a stack of a call,
/// and a flow's begin and end.
void make_one_of_each_capture(GeneratedCapture &capture);
/// About `count` events of every type over several threads and devices.
void make_large_capture(GeneratedCapture &capture, size_t count);

} // namespace prof::plugin_check
