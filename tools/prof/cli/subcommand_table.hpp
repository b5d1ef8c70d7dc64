// prof's subcommands (asys/nsys spelling) as data: the parser reads the
// words and what each implies, main dispatches on `route`, and help lists
// each one's own options.
#pragma once

#include "tools/prof/cli/option_table.hpp"

#include <span>
#include <string>
#include <string_view>

namespace prof::cli {

/// Where main hands a subcommand over.
enum class Route {
  Options,  ///< parsed with prof's options, dispatched like the flat form
  Export,   ///< prof export: its own arguments
  Stats,    ///< prof stats: its own arguments
  Diff,     ///< prof diff: its own arguments
  Merge,    ///< prof merge: its own arguments
  Import,   ///< prof import: its own arguments
  Sessions, ///< prof sessions list
  Status,   ///< prof status: prof's options (--session), no capture rules
};

/// Which of prof's options a subcommand takes.
enum class OptionSet {
  Capture, ///< profile: every capture, print and output option
  Launch,  ///< launch: as profile, collection starts off
  Attach,  ///< attach: profile's, less what sets up a launched application
  Start,   ///< start: --session, -o; with --all, attach's
  Trigger, ///< trigger: attach's and --trigger-dir, less --all and --match
  Control, ///< stop, suspend, resume, cancel, shutdown, status: --session
  Plugins, ///< plugins: --plugin-path
  Own,     ///< export, stats, diff, merge, import, sessions: their own arguments
};

struct SubcommandSpec {
  std::string_view name;
  std::string_view arguments; ///< what follows the options in the usage line
  std::string_view summary;   ///< one line for prof --help
  std::string_view implies;   ///< the option it stands for ("start", "profile-from-start=off")
  Route route;
  OptionSet options;
};

/// Every subcommand, in the order prof --help lists them.
std::span<const SubcommandSpec> subcommand_specs();

/// The subcommand named `word`, or nullptr.
const SubcommandSpec *find_subcommand(std::string_view word);

/// The name of the option `subcommand` implies ("" for none, and for "").
std::string_view implied_option(std::string_view subcommand);

/// "" when `subcommand` takes `option`, else why not (one line, naming both).
std::string refusal(const SubcommandSpec &subcommand, const OptionSpec &option);

} // namespace prof::cli
