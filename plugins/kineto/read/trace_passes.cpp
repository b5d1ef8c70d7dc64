// add_operator_passes, add_steps and number_flows (trace_passes.hpp);
// add_collectives is in trace_collectives.cpp.
#include "read/trace_passes.hpp"

#include "read/event_reader.hpp"

#include <prof/event.hpp>
#include <prof/kineto_format.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <utility>

namespace prof::kineto {

namespace kf = kineto_format;
namespace {

constexpr std::string_view kProfilerStepPrefix = kf::kProfilerStepPrefix;

bool is_operator(const ImportedEvent &e) {
  return e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_OPERATOR;
}

/// ProfilerStep#N's N, 0 for any other name.
uint64_t profiler_step(std::string_view name) {
  if (!name.starts_with(kProfilerStepPrefix)) return 0;
  const std::string_view digits = name.substr(kProfilerStepPrefix.size());
  uint64_t number = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  return error == std::errc() && end == digits.data() + digits.size() ? number : 0;
}

} // namespace

void add_operator_passes(ImportedTrace &trace) {
  std::vector<ImportedEvent> &events = trace.events;
  std::vector<size_t> order;
  for (size_t i = 0; i < events.size(); ++i)
    if (is_operator(events[i])) order.push_back(i);
  // By thread, then outer before inner: earlier begin, then longer.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const ImportedEvent &x = events[a], &y = events[b];
    if (x.lane != y.lane) return x.lane < y.lane;
    if (x.ts != y.ts) return x.ts < y.ts;
    if (x.duration != y.duration) return x.duration > y.duration;
    return a < b;
  });
  const prof_string_id pass = trace.strings.intern(PROF_OPERATOR_ARG_PASS),
                       self = trace.strings.intern(PROF_OPERATOR_ARG_SELF),
                       forward = trace.strings.intern("forward"),
                       backward = trace.strings.intern("backward");
  std::vector<int64_t> children(events.size(), 0);
  std::vector<bool> in_backward(events.size(), false);
  std::vector<size_t> open; // the operators around the current one, outermost first
  const Lane *lane = nullptr;
  for (const size_t i : order) {
    const ImportedEvent &e = events[i];
    if (lane == nullptr || *lane != e.lane) open.clear();
    lane = &e.lane;
    while (!open.empty()) {
      const ImportedEvent &outer = events[open.back()];
      if (e.ts >= outer.ts && e.ts + e.duration <= outer.ts + outer.duration) break;
      open.pop_back();
    }
    bool backward_pass = is_backward_name(trace.strings.text(e.name));
    if (!open.empty()) {
      children[open.back()] += e.duration;
      backward_pass = backward_pass || in_backward[open.back()];
    }
    in_backward[i] = backward_pass;
    open.push_back(i);
  }
  for (const size_t i : order) {
    ImportedEvent &e = events[i];
    const int64_t own = std::max<int64_t>(0, e.duration - children[i]);
    e.args.insert(e.args.begin(), {arg_string(pass, in_backward[i] ? backward : forward),
                                   arg_uint(self, static_cast<uint64_t>(own))});
  }
}

void add_steps(ImportedTrace &trace) {
  const prof_string_id name = trace.strings.intern("step"),
                       category = trace.strings.intern("torch/step"),
                       key = trace.strings.intern(PROF_STEP_ARG);
  const size_t count = trace.events.size();
  for (size_t i = 0; i < count; ++i) {
    const ImportedEvent &e = trace.events[i];
    if (e.type != PROF_EVENT_SLICE || e.lane.device) continue;
    const uint64_t number = profiler_step(trace.strings.text(e.name));
    if (number == 0) continue;
    ImportedEvent step;
    step.kind = PROF_CATEGORY_ANNOTATION;
    step.name = name;
    step.category = category;
    step.ts = e.ts;
    step.duration = e.duration;
    step.lane = e.lane;
    step.args = {arg_uint(key, number)};
    trace.events.push_back(std::move(step));
  }
}

void number_flows(ImportedTrace &trace) {
  // (category, id) -> which ends the trace has (bit 0 begin, bit 1 end).
  std::map<std::pair<prof_string_id, uint64_t>, unsigned> ends;
  for (const ImportedEvent &e : trace.events)
    if (e.type == PROF_EVENT_FLOW)
      ends[{e.category, e.id}] |= e.phase == PROF_FLOW_BEGIN ? 1u
                                  : e.phase == PROF_FLOW_END ? 2u
                                                             : 0u;
  std::map<std::pair<prof_string_id, uint64_t>, uint64_t> numbers;
  std::vector<ImportedEvent> kept;
  kept.reserve(trace.events.size());
  for (ImportedEvent &e : trace.events) {
    if (e.type == PROF_EVENT_FLOW) {
      const auto key = std::make_pair(e.category, e.id);
      if (ends[key] != 3u) continue;
      const auto [it, added] = numbers.try_emplace(key, numbers.size() + 1);
      e.id = it->second;
    }
    kept.push_back(std::move(e));
  }
  trace.events = std::move(kept);
}

void run_trace_passes(ImportedTrace &trace) {
  add_operator_passes(trace);
  add_steps(trace);
  add_collectives(trace);
  number_flows(trace);
}

} // namespace prof::kineto
