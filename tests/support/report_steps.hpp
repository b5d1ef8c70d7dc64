// The training steps a report holds: the numbers of its step slices
// (annotation slices with the "step" argument, event.h).
#pragma once

#include "core/report/report_reader.hpp"

#include <prof/event.h>

#include <set>

namespace prof::testing {

inline std::set<uint64_t> steps_in(const report::ReportReader &reader) {
  std::set<uint64_t> steps;
  for (const prof_event &e : reader.read_all_events()) {
    if (e.type != PROF_EVENT_SLICE || e.kind != PROF_CATEGORY_ANNOTATION || e.args == 0) continue;
    if (const auto args = reader.args().find(e.args))
      for (const prof_arg &arg : *args)
        if (reader.string(arg.key) == PROF_STEP_ARG && arg.type == PROF_ARG_UINT)
          steps.insert(arg.value.u);
  }
  return steps;
}

} // namespace prof::testing
