// Everything events refer to by id: strings, tracks, stacks, argument sets
// and clock domains of one capture (or of one report being read).
#pragma once

#include "core/catalog/args_table.hpp"
#include "core/catalog/clock_domain.hpp"
#include "core/catalog/stack_table.hpp"
#include "core/catalog/string_table.hpp"
#include "core/catalog/track_table.hpp"

namespace prof::core {

struct Catalog {
  StringTable strings;
  TrackTable tracks{strings};
  StackTable stacks;
  ArgsTable args;
  ClockDomainRegistry clocks;
};

/// How far a reader of the catalog has got: the sizes it has seen.
struct CatalogMark {
  size_t strings = 0;
  size_t tracks = 1;
  size_t stacks = 0;
  size_t args = 1; ///< set 0 is "no arguments", never written
  size_t track_renames = 0;
  bool operator==(const CatalogMark &) const = default;
};

/// The sizes of `catalog`'s tables now.
inline CatalogMark mark_of(const Catalog &catalog) {
  return {catalog.strings.size(), catalog.tracks.size(), catalog.stacks.size(), catalog.args.size(),
          catalog.tracks.renames()};
}

} // namespace prof::core
