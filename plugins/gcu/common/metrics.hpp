// Named metrics (--metrics) and what each records when the user selects
// nothing else (topsprof rule 4.5: explicit selections replace these).
#pragma once

#include <string>
#include <string_view>

namespace prof::gcu {

struct MetricDefaults {
  std::string_view name;
  std::string_view activities; ///< filter string of the activities it needs
  std::string_view events;     ///< filter string of the events it needs
};

inline constexpr MetricDefaults kMetrics[] = {
    {"sip_busy_efficiency_per_op", "*/general/operator",
     "*/*/sippmc/sip_busy_without_wait,sip_busy_with_wait"},
};

/// The defaults of `name`; throws std::runtime_error naming the known metrics.
const MetricDefaults &metric_defaults(std::string_view name);

} // namespace prof::gcu
