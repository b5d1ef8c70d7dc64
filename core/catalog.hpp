// Everything events refer to by id: strings, tracks, stacks and clock
// domains of one capture (or of one report being read).
#pragma once

#include "core/clock_domain.hpp"
#include "core/stack_table.hpp"
#include "core/string_table.hpp"
#include "core/track_table.hpp"

namespace prof::core {

struct Catalog {
  StringTable strings;
  TrackTable tracks{strings};
  StackTable stacks;
  ClockDomainRegistry clocks;
};

/// How far a reader of the catalog has got: the sizes it has seen.
struct CatalogMark {
  size_t strings = 0;
  size_t tracks = 1;
  size_t stacks = 0;
};

} // namespace prof::core
