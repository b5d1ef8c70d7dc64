#include "tools/prof/cli/option_rules.hpp"

#include "tools/prof/cli/subcommand_table.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <algorithm>
#include <string>

namespace prof::cli {
namespace {

using Names = std::vector<std::string_view>;

const std::vector<Names> kConflicts = {
    // topsprof 2.8
    {"import-rawdata", "import-profile"},
    {"import-profile", "export-profile", "export-visual-profiler"},
    {"export-profile", "export-visual-profiler"},
    {"enable-events", "import-events"},
    {"enable-activities", "import-activities"},
    {"print-api-summary", "print-gcu-summary", "print-summary", "print-summary-per-gcu"},
    {"devices", "import-events"},
    {"devices", "import-activities"},
    {"session", "session-new"},
    // prof: one way to set the CPU sampling rate.
    {"cpu-profiling-frequency", "sampling-frequency", "sample-period"},
    // prof: -o is asys' spelling of --export-profile; one trace printout;
    // one switch for the application's output.
    {"output", "export-profile"},
    {"import-profile", "output"},
    {"print-gcu-trace", "print-trace"},
    {"print-app-log", "show-output"},
};

constexpr std::string_view kStandalone[] = {
    "export-events", "export-activities", "query-events", "query-activities",
    "query-trace",   "plugin-list",       "help",         "version",
    "reset",         "session-list"};

constexpr std::string_view kControl[] = {"start",  "stop",     "suspend", "resume",
                                         "cancel", "shutdown", "dump"};

constexpr std::string_view kModifiers[] = {"quiet", "log-file", "debug", "debug-dump",
                                           "force-overwrite"};

constexpr std::string_view kCaptureOnly[] = {
    "devices", "buffer", "device-buffer-size", "host-buffer-size", "host-ringbuffer-size",
    "watermark-threshold", "profile-from-start", "import-events", "import-activities",
    "enable-events", "enable-activities", "export-rawdata", "print-app-log",
    "cpu-profiling-callstack", "cpu-profiling-frequency", "cpu-utilization", "memory-utilization",
    "utilization-frequency", "session-new", "memory-profile", "gcu-utilization",
    // prof's own
    "show-output", "trace", "sampling-frequency", "sample-period", "backtrace",
    "sample-backtrace-depth", "osrt-threshold", "osrt-backtrace-threshold", "osrt-backtrace-depth",
    "nic-metrics", "nic-device-include", "nic-metrics-frequency", "capture-range",
    "annotation-capture", "capture-range-end", "capture-steps", "at-step", "trace-rotation",
    "env-var", "inherit-environment", "wait", "delay", "gpu-metrics-frequency", "cuda-memory-usage",
    "cuda-graph-trace"};

constexpr std::string_view kSelectors[] = {"enable-events",
                                           "enable-activities",
                                           "import-events",
                                           "import-activities",
                                           "metrics",
                                           "cpu-profiling-callstack",
                                           "cpu-utilization",
                                           "memory-utilization",
                                           "memory-profile",
                                           "gcu-utilization",
                                           "nic-metrics",
                                           "python-sampling",
                                           "python-functions-trace",
                                           "pytorch"};

constexpr std::string_view kSavedCapture[] = {"import-profile", "import-rawdata"};
constexpr std::string_view kMerge[] = {"visual-profiler-merge-from", "visual-profiler-merge-to"};

template <typename List> bool contains(const List &list, std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

std::string shown(const CommandLine &command, std::string_view name) {
  std::string text = "--" + std::string(name);
  if (command.subcommand_given && name == implied_option(command.subcommand))
    text = "'prof " + command.subcommand + "'";
  const GivenOption *option = command.find(name);
  if (option && !option->origin.empty()) text += " (from " + option->origin + ")";
  return text;
}

std::string shown(const PluginSpec &spec) {
  if (!spec.origin.empty()) return "plugin '" + spec.name + "' (from " + spec.origin + ")";
  return "--plugin \"" + spec.name + (spec.help ? " help" : "") + "\"";
}

std::string shown_app(const CommandLine &command) {
  return "an application ('" + command.app.front() + "')";
}

std::string listed(const std::vector<std::string> &names, std::string_view last_joiner) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += (i + 1 == names.size()) ? std::string(last_joiner) : ", ";
    out += names[i];
  }
  return out;
}

void check_conflicts(const CommandLine &command) {
  for (const auto &group : kConflicts) {
    std::vector<std::string> given;
    for (auto name : group)
      if (command.has(name)) given.push_back(shown(command, name));
    if (given.size() > 1) throw UsageError(listed(given, " and ") + " cannot be used together");
  }
}

void check_watermark(const CommandLine &command) {
  if (!command.has("watermark-threshold")) return;
  const long ring = command.int_or("host-ringbuffer-size", 16);
  const long mark = command.int_or("watermark-threshold", 15);
  if (mark > ring - 1)
    throw UsageError(shown(command, "watermark-threshold") + " " + std::to_string(mark) +
                     " is out of range: expected 1 to " + std::to_string(ring - 1) +
                     " (--host-ringbuffer-size - 1)");
}

/// Everything given besides `self`, the modifiers and `also_allowed`.
/// Returns the description of the first such thing, or "".
std::string first_other(const CommandLine &command, std::string_view self,
                        const std::vector<std::string_view> &also_allowed,
                        bool allow_help_plugins) {
  for (const auto &option : command.options) {
    if (option.name == self || contains(kModifiers, option.name) ||
        contains(also_allowed, option.name) ||
        (command.subcommand_given && option.name == implied_option(command.subcommand)))
      continue;
    return shown(command, option.name);
  }
  for (const auto &spec : command.plugins)
    if (!(allow_help_plugins && spec.help)) return shown(spec);
  if (command.has_app()) return shown_app(command);
  return {};
}

void check_alone(const CommandLine &command) {
  for (const auto &option : command.options) {
    if (!contains(kStandalone, option.name)) continue;
    // 'prof plugins --help': the option the word stands for is no company.
    if (command.has("help") && command.subcommand_given &&
        option.name == implied_option(command.subcommand))
      continue;
    const std::string other = first_other(command, option.name, {}, false);
    if (!other.empty())
      throw UsageError(shown(command, option.name) + " must be used alone, not with " + other);
  }
  for (const auto &spec : command.plugins) {
    if (!spec.help) continue;
    const std::string other = first_other(command, "", {}, true);
    if (!other.empty()) throw UsageError(shown(spec) + " must be used alone, not with " + other);
  }
  for (auto name : kMerge) {
    if (!command.has(name)) continue;
    const std::string_view partner = name == kMerge[0] ? kMerge[1] : kMerge[0];
    if (!command.has(partner))
      throw UsageError(shown(command, name) + " needs " + shown(command, partner));
    const std::string other = first_other(command, name, {partner}, false);
    if (!other.empty())
      throw UsageError(shown(command, name) + " must be used alone, not with " + other);
  }
}

void check_control(const CommandLine &command) {
  for (const auto &option : command.options) {
    if (!contains(kControl, option.name)) continue;
    for (const auto &second : command.options)
      if (second.name != option.name && contains(kControl, second.name))
        throw UsageError(shown(command, option.name) + " and " + shown(command, second.name) +
                         " cannot be used together");
    // `prof start -o NAME` names the report of the window it starts.
    const bool start = option.name == "start";
    if (start && command.has("all")) { // a capture of its own, checked as attach's
      if (command.has("session"))
        throw UsageError(shown(command, "session") +
                         " names a session to act on; prof start --all starts one: name it "
                         "with --session-new");
      continue;
    }
    const std::string other = first_other(
        command, option.name, start ? Names{"session", "output"} : Names{"session"}, false);
    if (!other.empty())
      throw UsageError(shown(command, option.name) + " can only be used alone or with --session" +
                       (start ? " and -o" : "") + ", not with " + other);
  }
}

bool selects_something(const CommandLine &command);

// `prof attach --all [--match REGEX]`: the processes are found, not named.
void check_attach_all(const CommandLine &command) {
  if (command.has("trigger-dir") && !command.has("all") && command.subcommand != "trigger")
    throw UsageError(shown(command, "trigger-dir") +
                     " chooses among the processes --all finds: add --all (or write a request "
                     "with prof trigger)");
  if (command.has("match") && !command.has("all"))
    throw UsageError(shown(command, "match") + " chooses among the processes --all finds: add "
                                               "--all");
  if (command.has("all") && command.subcommand != "attach" && !command.has("start"))
    throw UsageError(shown(command, "all") + " attaches to every waiting process: use it as "
                                             "prof attach --all or prof start --all");
}

void check_without_app(const CommandLine &command) {
  // attach (and a request carried out as prof attach --all): it checks what it can attach
  if (command.has("pid") || command.has("all") || command.subcommand == "trigger") {
    const std::string who = command.subcommand == "trigger" ? "prof trigger"
                            : command.has("pid")            ? shown(command, "pid")
                                                            : shown(command, "all");
    if (!selects_something(command))
      throw UsageError(who + " needs something to capture (e.g. --trace osrt, --sample "
                             "system-wide, --enable-activities)");
    return;
  }
  for (const auto &option : command.options)
    if (contains(kCaptureOnly, option.name))
      throw UsageError(shown(command, option.name) +
                       " can only be used when launching an application");
  const std::string sample = command.value_or("sample", "");
  if (sample == "process-tree")
    throw UsageError(shown(command, "sample") +
                     " process-tree can only be used when launching an application");
  for (auto name : kSavedCapture)
    if (command.has(name)) return;
  if (sample == "system-wide") return;
  if (command.has("session"))
    throw UsageError(shown(command, "session") + " needs --start, --stop, --suspend, --resume, "
                                                 "--cancel or --shutdown, or an application");
  std::string first = first_other(command, "", {}, false);
  if (first.empty() && command.config_path) first = shown(command, "config");
  if (first.empty()) throw UsageError("no application given (see prof --help)");
  throw UsageError(first + " needs an application to profile, or --import-profile or "
                           "--import-rawdata to read a saved capture");
}

bool selects_something(const CommandLine &command) {
  for (auto name : kSelectors)
    if (command.has(name) && command.value_or(name, "true") != "false") return true;
  for (const auto &spec : command.plugins)
    if (!spec.help) return true;
  if (command.config_path) return true;
  if (command.value_or("trace", "none") != "none") return true;
  return command.value_or("sample", "none") != "none";
}

void check_with_app(const CommandLine &command) {
  for (auto name : kSavedCapture)
    if (command.has(name))
      throw UsageError(shown(command, name) + " cannot be used with " + shown_app(command));
  if (selects_something(command)) return;
  std::vector<std::string> choices;
  for (auto name : kSelectors)
    choices.push_back("--" + std::string(name));
  for (auto name : {"--plugin", "--config", "--trace", "--sample"})
    choices.emplace_back(name);
  throw UsageError("a capture needs one of " + listed(choices, " or "));
}

} // namespace

void check_option_rules(const CommandLine &command) {
  if (command.has("help") || command.has("version")) {
    check_alone(command); // prof SUB --help: the word's own option is no other
    return;
  }
  check_conflicts(command);
  check_watermark(command);
  check_alone(command);
  check_control(command);
  check_attach_all(command);
  if (command.has_app())
    check_with_app(command);
  else {
    for (const auto &option : command.options)
      if (contains(kStandalone, option.name) || contains(kControl, option.name) ||
          contains(kMerge, option.name))
        return;
    for (const auto &spec : command.plugins)
      if (spec.help) return;
    check_without_app(command);
  }
}

std::span<const std::vector<std::string_view>> conflict_groups() { return kConflicts; }
std::span<const std::string_view> standalone_options() { return kStandalone; }
std::span<const std::string_view> capture_only_options() { return kCaptureOnly; }
std::span<const std::string_view> capture_selectors() { return kSelectors; }
std::span<const std::string_view> modifier_options() { return kModifiers; }
std::span<const std::string_view> control_options() { return kControl; }

} // namespace prof::cli
