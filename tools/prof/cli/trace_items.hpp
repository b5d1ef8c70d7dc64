// asys/nsys trace items (-t NAME) and the prof source each stands for.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace prof::cli {

struct TraceItem {
  std::string_view name;   ///< as asys or nsys spell it
  std::string_view plugin; ///< prof's source plugin, "" when prof has none
  std::string_view needs;  ///< what collecting it takes, for the error users read
};

/// Every trace item prof knows by name.
std::span<const TraceItem> trace_items();

/// The item named `name`, or nullptr (then `name` is taken as a plugin name).
const TraceItem *find_trace_item(std::string_view name);

/// "gcu, osrt, nvtx (hgtx), ...": the items prof has a source for.
std::string supported_trace_items();

} // namespace prof::cli
