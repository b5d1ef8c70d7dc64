#include "tools/prof/cli/subcommand_table.hpp"

#include <algorithm>

namespace prof::cli {
namespace {

using O = OptionSet;

constexpr SubcommandSpec kSubcommands[] = {
    {"profile", "[options] application [application-arguments]",
     "run an application and capture its profile (report%i.profrep without -o)", "", Route::Options,
     O::Capture},
    {"launch", "[options] application [application-arguments]",
     "launch an application with collection off until prof start", "profile-from-start=off",
     Route::Options, O::Launch},
    {"attach", "[options] PID[,PID...] | --all [--match REGEX]",
     "capture running processes until Ctrl-C or --duration; they run on", "", Route::Options,
     O::Attach},
    {"start", "[-o NAME] [--session NAME] | --all [--match REGEX] [options]",
     "start collecting in a session, or in every waiting process (--all; prof stop ends it)",
     "start", Route::Options, O::Start},
    {"trigger",
     "--trigger-dir DIR (--capture-steps K [--at-step S] | --duration SECONDS) [options] -o NAME",
     "ask every process watching DIR, on every host sharing it, for a capture", "", Route::Options,
     O::Trigger},
    {"stop", "[--session NAME]", "stop collecting in a session and write its report", "stop",
     Route::Options, O::Control},
    {"suspend", "[--session NAME]", "pause collecting in a session", "suspend", Route::Options,
     O::Control},
    {"resume", "[--session NAME]", "resume collecting in a session", "resume", Route::Options,
     O::Control},
    {"cancel", "[--session NAME]", "stop collecting in a session and discard what it collected",
     "cancel", Route::Options, O::Control},
    {"shutdown", "[--session NAME]", "end a session's capture and its application (see --kill)",
     "shutdown", Route::Options, O::Control},
    {"dump", "[--session NAME]",
     "write what a session's flight recorder holds as a report; collection goes on", "dump",
     Route::Options, O::Control},
    {"sessions", "list", "list the running sessions", "", Route::Sessions, O::Own},
    {"status", "[--session NAME]", "show the state of the running sessions", "", Route::Status,
     O::Control},
    {"export", "[--type TYPE] [-o FILE] [--force-overwrite] [--mark critical-path] REPORT",
     "convert a report (perfetto, chrome-json, kineto, csv, folded, pprof, sqlite)", "",
     Route::Export, O::Own},
    {"stats", "[--report NAMES] [--format table|csv|json] [-o FILE] REPORT|FOLDER...",
     "compute statistics from a report, or across ranks' reports (--help-reports lists them; "
     "--report findings: what is worth fixing; --report outliers: the ranks that differ; "
     "thousands of ranks: docs/scale.md)",
     "", Route::Stats, O::Own},
    {"diff", "[--format table|csv|json|html] [--fail-on-regression PCT] [-o FILE] BASE NEW",
     "compare two runs: what got slower, faster, new or gone (docs/diff.md)", "", Route::Diff,
     O::Own},
    {"merge", "-o FILE [--force-overwrite] [--ranks LIST|outliers] REPORT|FOLDER...",
     "merge the reports of several processes, ranks or hosts", "", Route::Merge, O::Own},
    {"import", "[-o OUT] [--force-overwrite] [--rank N] [--importer NAME] TRACE...",
     "convert other profilers' traces into reports, through importer plugins", "", Route::Import,
     O::Own},
    {"plugins", "[--plugin-path DIR]", "list the installed plugins", "plugin-list", Route::Options,
     O::Plugins},
};

/// What only a launched application has.
constexpr std::string_view kLaunchOnly[] = {
    "env-var", "inherit-environment", "show-output", "print-app-log", "wait", "kill"};

/// What only `prof attach` takes.
constexpr std::string_view kAttachOnly[] = {"all", "match", "trigger-dir"};

/// Options that act on sessions, saved captures or the installation, not on a capture.
constexpr std::string_view kNotCapture[] = {"session",
                                            "session-list",
                                            "start",
                                            "stop",
                                            "suspend",
                                            "resume",
                                            "cancel",
                                            "shutdown",
                                            "dump",
                                            "plugin-list",
                                            "pid",
                                            "reset",
                                            "visual-profiler-merge-from",
                                            "visual-profiler-merge-to",
                                            "import-profile",
                                            "import-rawdata",
                                            "query-events",
                                            "query-activities",
                                            "query-trace",
                                            "export-events",
                                            "export-activities",
                                            "version"};

/// Options every subcommand that parses prof's options takes.
constexpr std::string_view kEverywhere[] = {"help",  "quiet",      "log-file",
                                            "debug", "debug-dump", "force-overwrite"};

template <typename List> bool contains(const List &list, std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

bool takes(OptionSet set, std::string_view option) {
  if (set == O::Own) return false;
  if (contains(kEverywhere, option)) return true;
  switch (set) {
  case O::Capture:
    return !contains(kNotCapture, option) && !contains(kAttachOnly, option);
  case O::Launch:
    return !contains(kNotCapture, option) && !contains(kAttachOnly, option) &&
           option != "profile-from-start";
  case O::Attach:
    return !contains(kNotCapture, option) && !contains(kLaunchOnly, option);
  case O::Start: // with --all, what prof attach takes
    return option == "session" || takes(O::Attach, option);
  case O::Trigger:
    return option != "all" && option != "match" && option != "session-new" &&
           takes(O::Attach, option);
  case O::Control:
    return option == "session";
  case O::Plugins:
    return option == "plugin-path";
  case O::Own:
    return false;
  }
  return false;
}

} // namespace

std::span<const SubcommandSpec> subcommand_specs() { return kSubcommands; }

const SubcommandSpec *find_subcommand(std::string_view word) {
  for (const auto &spec : kSubcommands)
    if (spec.name == word) return &spec;
  return nullptr;
}

std::string_view implied_option(std::string_view subcommand) {
  const SubcommandSpec *spec = find_subcommand(subcommand);
  if (!spec) return {};
  return spec->implies.substr(0, spec->implies.find('='));
}

std::string refusal(const SubcommandSpec &subcommand, const OptionSpec &option) {
  if (takes(subcommand.options, option.name)) return {};
  const std::string dashed = "--" + std::string(option.name);
  if (subcommand.options == O::Attach && option.name == "kill")
    return dashed + ": prof attach never stops the processes it attaches to";
  if (subcommand.options == O::Attach && contains(kLaunchOnly, option.name))
    return dashed + " sets up a launched application: it cannot apply to a process that is "
                    "already running";
  const std::string word = "'prof " + std::string(subcommand.name) + "'";
  return word + " takes no " + dashed + " (see prof " + std::string(subcommand.name) + " --help)";
}

} // namespace prof::cli
