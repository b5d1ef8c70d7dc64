#include "tools/prof/cli/plugin_mapping.hpp"

#include "tools/prof/cli/python_functions_list.hpp"
#include "tools/prof/cli/trace_items.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <algorithm>

namespace prof::cli {
namespace {

using R = MappingRole;

constexpr OptionMapping kMappings[] = {
    // GCU sources: activities and the API trace (gcu), SIP counters (sip-pmc)
    {"enable-activities", "gcu", "activities", "", R::Enables},
    {"import-activities", "gcu", "import-activities", "", R::Enables},
    {"export-activities", "gcu", "export-activities", "", R::Enables},
    // Queries need the plugin only: the query itself reaches it by the query call.
    {"query-activities", "gcu", "", "", R::Enables},
    {"query-trace", "gcu", "", "", R::Enables},
    {"gcu-utilization", "gcu", "utilization", "true", R::Enables},
    {"gcu-utilization-frequency", "gcu", "utilization-frequency", "", R::Modifies},
    {"enable-events", "sip-pmc", "events", "", R::Enables},
    {"import-events", "sip-pmc", "import-events", "", R::Enables},
    {"export-events", "sip-pmc", "export-events", "", R::Enables},
    {"query-events", "sip-pmc", "", "", R::Enables},
    // A metric needs activities, counters and the table that shows it.
    {"metrics", "gcu", "metrics", "", R::Enables},
    {"metrics", "sip-pmc", "metrics", "", R::Enables},
    {"metrics", "gcu-metrics", "metrics", "", R::Enables},
    {"devices", "gcu", "devices", "", R::Modifies},
    {"devices", "sip-pmc", "devices", "", R::Modifies},
    {"buffer", "gcu", "buffer", "", R::Modifies},
    {"buffer", "sip-pmc", "buffer", "", R::Modifies},
    {"device-buffer-size", "gcu", "device-buffer-size", "", R::Modifies},
    {"device-buffer-size", "sip-pmc", "device-buffer-size", "", R::Modifies},
    {"host-ringbuffer-size", "gcu", "host-ringbuffer-size", "", R::Modifies},
    {"host-ringbuffer-size", "sip-pmc", "host-ringbuffer-size", "", R::Modifies},
    {"watermark-threshold", "gcu", "watermark-threshold", "", R::Modifies},
    {"watermark-threshold", "sip-pmc", "watermark-threshold", "", R::Modifies},
    // CUDA (nsys spellings) and the buffer options it shares with GCUs
    {"gpu-metrics-frequency", "cuda", "metrics", "true", R::Enables},
    {"gpu-metrics-frequency", "cuda", "metrics-frequency", "", R::Modifies},
    {"cuda-memory-usage", "cuda", "memory-usage", "", R::Modifies},
    {"cuda-graph-trace", "cuda", "graph-trace", "", R::Modifies},
    {"device-buffer-size", "cuda", "device-buffer-size", "", R::Modifies},
    {"host-ringbuffer-size", "cuda", "host-ringbuffer-size", "", R::Modifies},
    {"watermark-threshold", "cuda", "watermark-threshold", "", R::Modifies},
    // CPU sources
    {"cpu-utilization", "cpu-util", "cpu", "true", R::Enables},
    {"memory-utilization", "cpu-util", "memory", "true", R::Enables},
    {"utilization-frequency", "cpu-util", "frequency", "", R::Modifies},
    {"cpu-profiling-callstack", "cpu-perf", "callstack", "true", R::Enables},
    {"kernel-callstack", "cpu-perf", "kernel", "true", R::Enables},
    {"cpu-profiling-frequency", "cpu-perf", "frequency", "", R::Modifies},
    {"sample", "cpu-perf", "scope", "", R::Enables},
    {"sample", "cpu-perf", "callstack", "true", R::Enables},
    {"sampling-frequency", "cpu-perf", "frequency", "", R::Modifies},
    {"sample-period", "cpu-perf", "period", "", R::Modifies},
    {"backtrace", "cpu-perf", "backtrace", "", R::Modifies},
    {"sample-backtrace-depth", "cpu-perf", "depth", "", R::Modifies},
    {"memory-profile", "memory", "profile", "", R::Enables}, // alone: the plugin's default
    {"memory-profile", "torch", "memory", "true", R::Modifies},
    {"python-sampling", "python", "sampling", "", R::Enables},
    // The first that is given sets python's rate.
    {"python-sampling-frequency", "python", "frequency", "", R::Modifies},
    {"sampling-frequency", "python", "frequency", "", R::Modifies},
    {"cpu-profiling-frequency", "python", "frequency", "", R::Modifies},
    // OS runtime and NIC sources
    {"osrt-threshold", "osrt", "threshold", "", R::Modifies},
    {"osrt-backtrace-threshold", "osrt", "backtrace-threshold", "", R::Modifies},
    {"osrt-backtrace-depth", "osrt", "backtrace-depth", "", R::Modifies},
    {"python-backtrace", "osrt", "python-backtrace", "", R::Modifies},
    {"python-functions-threshold", "python", "threshold", "", R::Modifies},
    {"nic-metrics", "nic", "", "", R::Enables},
    {"nic-device-include", "nic", "include", "", R::Modifies},
    {"nic-metrics-frequency", "nic", "frequency", "", R::Modifies},
    // exporters
    {"print-summary", "summary", "mode", "summary", R::Enables},
    {"print-gcu-summary", "summary", "mode", "gcu", R::Enables},
    {"print-summary-per-gcu", "summary", "mode", "per-gcu", R::Enables},
    {"print-api-summary", "summary", "mode", "api", R::Enables},
    {"print-gcu-trace", "trace", "scope", "gcu", R::Enables},
    {"print-trace", "trace", "scope", "all", R::Enables},
    {"export-csv", "csv", "path", "", R::Enables},
    {"export-visual-profiler", "perfetto", "path", "", R::Enables},
};

constexpr std::string_view kPrintOptions[] = {"print-summary",         "print-gcu-summary",
                                              "print-summary-per-gcu", "print-api-summary",
                                              "print-gcu-trace",       "print-trace"};

bool is_switch(const OptionMapping &mapping) {
  return mapping.role == R::Enables && !mapping.key.empty() && mapping.value == "true";
}

class RequestList {
public:
  PluginRequest &request(std::string_view plugin, const std::string &requested_by) {
    for (auto &existing : requests_)
      if (existing.plugin == plugin) return existing;
    requests_.push_back({std::string(plugin), {}, requested_by, false, {}});
    return requests_.back();
  }
  PluginRequest *find(std::string_view plugin) {
    for (auto &existing : requests_)
      if (existing.plugin == plugin) return &existing;
    return nullptr;
  }
  static void set(PluginRequest &request, std::string_view key, std::string value, bool overwrite) {
    for (auto &[existing, text] : request.options) {
      if (existing != key) continue;
      if (overwrite) text = std::move(value);
      return;
    }
    request.options.emplace_back(std::string(key), std::move(value));
  }
  std::vector<PluginRequest> take() { return std::move(requests_); }

private:
  std::vector<PluginRequest> requests_;
};

std::string mapped_value(const OptionMapping &mapping, const GivenOption &option) {
  return mapping.value.empty() ? option.value : std::string(mapping.value);
}

std::string requester(const GivenOption &option) {
  return option.origin.empty() ? "--" + option.name : option.origin;
}

void add_topsprof_options(const CommandLine &command, RequestList &list) {
  std::vector<std::string_view> from_options; // plugins asked for by topsprof options
  for (const auto &option : command.options) {
    for (const auto &mapping : kMappings) {
      if (mapping.option != option.name || mapping.role != R::Enables) continue;
      if (option.value == "none" || option.value == "false") continue; // asks for nothing
      PluginRequest &request = list.request(mapping.plugin, requester(option));
      // An optional word left out (--memory-profile alone) sets nothing.
      if (!mapping.key.empty() && !mapped_value(mapping, option).empty())
        RequestList::set(request, mapping.key, mapped_value(mapping, option), false);
      from_options.push_back(mapping.plugin);
    }
  }
  for (const auto &mapping : kMappings) {
    PluginRequest *request = list.find(mapping.plugin);
    if (!request || !is_switch(mapping) || command.find(mapping.option) ||
        std::find(from_options.begin(), from_options.end(), mapping.plugin) == from_options.end())
      continue;
    RequestList::set(*request, mapping.key, "false", false);
  }
}

// Options that tune a plugin (frequencies, thresholds) reach it however it
// was asked for: topsprof option, --trace or --plugin (whose keys win).
void add_modifiers(const CommandLine &command, RequestList &list,
                   std::string_view only_plugin = {}) {
  for (const auto &mapping : kMappings) {
    if (mapping.role != R::Modifies || (!only_plugin.empty() && mapping.plugin != only_plugin))
      continue;
    PluginRequest *request = list.find(mapping.plugin);
    const GivenOption *option = command.find(mapping.option);
    if (request && option)
      RequestList::set(*request, mapping.key, mapped_value(mapping, *option), false);
  }
}

void add_trace_items(const CommandLine &command, RequestList &list) {
  const std::string *items = command.value("trace");
  if (!items || *items == "none") return;
  std::string_view rest = *items;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const std::string by = requester(*command.find("trace"));
    const TraceItem *known = find_trace_item(item);
    if (known && known->plugin.empty())
      throw UsageError(by + " " + std::string(item) + " needs " + std::string(known->needs) +
                       " (trace items: " + supported_trace_items() + ")");
    if (item != "none") {
      PluginRequest &request = list.request(known ? known->plugin : item, by);
      if (request.when_missing.empty())
        request.when_missing = by + " " + std::string(item) + " needs " +
                               (known ? std::string(known->needs)
                                      : "a trace item or source plugin named " + std::string(item));
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
}

void add_plugin_specs(const CommandLine &command, RequestList &list) {
  for (const auto &spec : command.plugins) {
    if (spec.help) continue;
    PluginRequest &request =
        list.request(spec.name, spec.origin.empty() ? "--plugin" : spec.origin);
    for (const auto &[key, value] : spec.options)
      RequestList::set(request, key, value, true);
  }
}

std::string_view option_text(const PluginRequest &request, std::string_view key) {
  for (const auto &[existing, text] : request.options)
    if (existing == key) return text;
  return {};
}

// CPU sampling with call stacks of a launched process tree names Python
// frames too, unless --python-sampling false: the python source samples
// Python processes from inside (cpu-perf leaves them to it), at cpu-perf's
// rate. A process attached to has no agent for it unless it was started
// with one: there it is asked for by --python-sampling true alone.
bool python_sampling_implied(const CommandLine &command, const PluginRequest *cpu) {
  if (!cpu || command.subcommand == "attach" || command.has("pid")) return false;
  return option_text(*cpu, "callstack") != "false" && option_text(*cpu, "backtrace") != "none" &&
         option_text(*cpu, "scope") != "system-wide" && option_text(*cpu, "scope") != "none";
}

// --python-functions-trace asks for the python source, which samples only
// when that was asked for or implied (add_python_sampling, which runs first).
void add_python_functions(const CommandLine &command, RequestList &list) {
  const GivenOption *option = command.find("python-functions-trace");
  if (!option) return;
  const std::string functions = python_functions_option(option->value);
  const bool sampling = list.find("python") != nullptr;
  PluginRequest &python = list.request("python", requester(*option));
  python.implicit = false;
  RequestList::set(python, "functions", functions, false);
  if (!sampling) RequestList::set(python, "sampling", "false", false);
  add_modifiers(command, list, "python"); // python was not there for them before
}

// --pytorch (nsys): the torch source, with shapes for the -shapes modes; the
// functions-trace modes add the function trace's pytorch set (module and
// optimizer ranges) unless --python-functions-trace chose functions.
void add_pytorch(const CommandLine &command, RequestList &list) {
  const GivenOption *option = command.find("pytorch");
  if (!option || option->value == "none") return;
  PluginRequest &torch = list.request("torch", requester(*option));
  torch.implicit = false;
  if (torch.when_missing.empty()) torch.when_missing = requester(*option) + " needs plugin torch";
  if (option->value.find("shapes") != std::string::npos)
    RequestList::set(torch, "shapes", "true", false);
  if (!option->value.starts_with("functions-trace")) return;
  const bool sampling = list.find("python") != nullptr;
  PluginRequest &python = list.request("python", requester(*option));
  if (!option_text(python, "functions").empty()) return;
  python.implicit = false;
  RequestList::set(python, "functions", python_functions_option("pytorch"), false);
  if (!sampling) RequestList::set(python, "sampling", "false", false);
  add_modifiers(command, list, "python");
}

void add_python_sampling(const CommandLine &command, RequestList &list) {
  const PluginRequest *cpu = list.find("cpu-perf");
  const std::string *asked = command.value("python-sampling");
  if (!cpu || (asked && *asked == "false") || list.find("python")) return;
  if (!python_sampling_implied(command, cpu)) return;
  const std::string *own_rate = command.value("python-sampling-frequency");
  const std::string frequency(own_rate ? std::string_view(*own_rate)
                                       : option_text(*cpu, "frequency"));
  PluginRequest &python = list.request("python", cpu->requested_by); // may move *cpu
  python.implicit = true;
  if (!frequency.empty()) RequestList::set(python, "frequency", frequency, false);
}

bool wants_default_summary(const CommandLine &command, RequestList &list) {
  if (command.has("quiet") || list.find("summary") || list.find("trace")) return false;
  // A flight recorder writes its dumps only, and keeps its memory within its
  // bound only when nothing beside it sees every event (args_sweeper.hpp).
  if (command.has("flight-recorder")) return false;
  for (auto name : kPrintOptions)
    if (command.has(name)) return false;
  return command.has_app() || command.has("import-profile") || command.has("import-rawdata");
}

} // namespace

std::span<const OptionMapping> option_mappings() { return kMappings; }

bool let_python_sample_the_tree(std::vector<PluginRequest> &requests,
                                const std::function<bool()> &application_is_python) {
  const auto find = [&](std::string_view name) -> PluginRequest * {
    for (PluginRequest &request : requests)
      if (request.plugin == name) return &request;
    return nullptr;
  };
  PluginRequest *cpu = find("cpu-perf");
  PluginRequest *python = find("python");
  if (!cpu || !python) return false;
  const auto cpu_option = [&](std::string_view key) { return option_text(*cpu, key); };
  const bool cpu_samples_tree_alone =
      (cpu_option("scope").empty() || cpu_option("scope") == "process-tree") &&
      cpu_option("callstack") != "false" && cpu_option("backtrace") != "none" &&
      cpu_option("kernel") != "true" && cpu_option("counters").empty() &&
      (cpu_option("period").empty() || cpu_option("period") == "0");
  const bool python_samples = option_text(*python, "sampling") != "false" &&
                              option_text(*python, "native").empty() &&
                              option_text(*python, "frequency") == cpu_option("frequency");
  if (!cpu_samples_tree_alone || !python_samples || !application_is_python()) return false;
  RequestList::set(*cpu, "scope", "none", true);
  RequestList::set(*python, "native", "true", true);
  return true;
}

std::vector<PluginRequest> plugin_requests(const CommandLine &command) {
  RequestList list;
  add_topsprof_options(command, list);
  add_trace_items(command, list);
  add_plugin_specs(command, list);
  add_modifiers(command, list);
  add_python_sampling(command, list); // after the modifiers: cpu-perf's final options
  add_python_functions(command, list);
  add_pytorch(command, list);
  if (wants_default_summary(command, list)) {
    PluginRequest &summary = list.request("summary", "--print-summary");
    summary.implicit = true;
    RequestList::set(summary, "mode", "summary", false);
  }
  return list.take();
}

} // namespace prof::cli
