#include "cpu_perf_options.hpp"

#include <prof/declared_options.hpp>

#include <linux/perf_event.h>

#include <fstream>
#include <sstream>

namespace prof::cpu_perf {
namespace {

std::string trim(const std::string &s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

} // namespace

std::optional<long long> read_proc_int(const char *path) {
  std::ifstream in(path);
  long long value = 0;
  if (!(in >> value)) return std::nullopt;
  return value;
}

std::optional<std::vector<HardwareCounter>> parse_counter_list(const std::string &text,
                                                               std::string &bad) {
  static const std::pair<const char *, uint64_t> kKnown[] = {
      {"cycles", PERF_COUNT_HW_CPU_CYCLES},
      {"instructions", PERF_COUNT_HW_INSTRUCTIONS},
      {"cache-misses", PERF_COUNT_HW_CACHE_MISSES},
      {"cache-references", PERF_COUNT_HW_CACHE_REFERENCES},
      {"branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
      {"branch-misses", PERF_COUNT_HW_BRANCH_MISSES},
  };
  std::vector<HardwareCounter> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    bool found = false;
    for (const auto &[name, config] : kKnown)
      if (item == name) {
        out.push_back({item, config});
        found = true;
      }
    if (!found) {
      bad = item;
      return std::nullopt;
    }
  }
  return out;
}

std::optional<CpuPerfOptions> read_options(const Host &host) {
  const DeclaredOptions declared(host, kOptions);
  CpuPerfOptions o;
  o.callstack = declared.flag("callstack");
  o.kernel = declared.flag("kernel");
  o.switches = declared.flag("switches");
  const long long frequency = declared.integer("frequency");
  if (frequency < 1 || frequency > 10000) {
    host.error("cpu-perf: frequency must be 1..10000 Hz, got " + std::to_string(frequency));
    return std::nullopt;
  }
  o.frequency = static_cast<int>(frequency);
  const long long period = declared.integer("period");
  if (period < 0 || period > 1000000000LL) {
    host.error("cpu-perf: period must be 0..1000000000 events, got " + std::to_string(period));
    return std::nullopt;
  }
  o.period = static_cast<uint64_t>(period);
  const long long depth = declared.integer("depth");
  if (depth < 1 || depth > 127) {
    host.error("cpu-perf: depth must be 1..127 frames, got " + std::to_string(depth));
    return std::nullopt;
  }
  o.depth = static_cast<int>(depth);

  const std::string backtrace(declared.text("backtrace"));
  if (backtrace == "fp")
    o.backtrace = Backtrace::FramePointer;
  else if (backtrace == "dwarf")
    o.backtrace = Backtrace::Dwarf;
  else if (backtrace == "none")
    o.backtrace = Backtrace::None;
  else {
    host.error("cpu-perf: backtrace must be fp, dwarf or none, got '" + backtrace + "'");
    return std::nullopt;
  }
  if (!o.callstack) o.backtrace = Backtrace::None;
#if !defined(__x86_64__)
  if (o.backtrace == Backtrace::Dwarf) {
    host.error("cpu-perf: backtrace=dwarf is only supported on x86-64; use backtrace=fp");
    return std::nullopt;
  }
#endif

  const std::string scope(declared.text("scope"));
  if (scope == "process-tree")
    o.scope = Scope::ProcessTree;
  else if (scope == "system-wide")
    o.scope = Scope::SystemWide;
  else if (scope == "none")
    o.scope = Scope::None;
  else {
    host.error("cpu-perf: scope must be process-tree, system-wide or none, got '" + scope + "'");
    return std::nullopt;
  }

  std::string bad;
  auto counters = parse_counter_list(std::string(declared.text("counters")), bad);
  if (!counters) {
    host.error("cpu-perf: unknown hardware counter '" + bad +
               "'; known: cycles, instructions, cache-misses, cache-references, branches, "
               "branch-misses");
    return std::nullopt;
  }
  o.counters = std::move(*counters);

  if (o.period == 0) {
    const auto max_rate = read_proc_int("/proc/sys/kernel/perf_event_max_sample_rate");
    if (max_rate && *max_rate > 0 && o.frequency > *max_rate) {
      host.log(PROF_LOG_WARN, "cpu-perf: frequency " + std::to_string(o.frequency) +
                                  " Hz exceeds perf_event_max_sample_rate; using " +
                                  std::to_string(*max_rate) + " Hz");
      o.frequency = static_cast<int>(*max_rate);
    }
  }
  return o;
}

} // namespace prof::cpu_perf
