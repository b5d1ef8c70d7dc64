// What the records of a GCU driver are, as its device tree describes them
// (driver 1.1): each activity's well-known category and whether it ends its
// API call's flow, refined by what a record's label names; and (driver 1.3)
// each traced API function's category. A 1.0 driver describes nothing: its
// records are "other" and end no flow, its calls runtime-API calls.
#pragma once

#include <prof/gcu_driver.h>

#include <cstdint>
#include <vector>

namespace prof::gcu {

class ActivityKinds {
public:
  ActivityKinds(const prof_gcu_driver &driver, const prof_gcu_topology &topology);

  /// The prof_category of activity `activity` of engine `engine`.
  uint16_t category(uint32_t engine, uint32_t activity) const;
  /// Whether its records end their API call's flow.
  bool ends_flow(uint32_t engine, uint32_t activity) const;
  /// The category a label names (a copy's direction), 0 when none.
  uint16_t label_category(uint32_t label) const;
  /// The prof_category of calls of API function `function` of `domain`:
  /// PROF_CATEGORY_RUNTIME_API unless the driver says otherwise.
  uint16_t api_category(uint32_t domain, uint32_t function) const;

private:
  struct Kind {
    uint16_t category = 0;
    uint16_t flags = 0;
  };
  const Kind *find(uint32_t engine, uint32_t activity) const;

  const prof_gcu_driver &driver_;
  std::vector<std::vector<Kind>> kinds_;              // [engine][activity]
  std::vector<std::vector<uint16_t>> api_categories_; // [domain][function]
};

} // namespace prof::gcu
