// The options prof understands, as data: topsprof's tables 2.1-2.7 plus
// prof's own and asys-style ones. Parser, help text and rules read it.
#pragma once

#include <span>
#include <string_view>

namespace prof::cli {

/// Help sections, in topsprof's order.
enum class OptionGroup { Gcu, Cpu, Print, InputOutput, Control, Plugin, Advanced };

/// What an option's value looks like.
enum class ValueKind {
  Flag,      ///< no value
  Switch,    ///< a flag that also takes true|false (asys -f true): false leaves it unset
  Optional,  ///< a flag that may take free text after '=' (--debug-dump=DIR); alone its value is ""
  Text,      ///< free text (file name, filter string)
  Int,       ///< integer within [min, max]
  Enum,      ///< one of `choices` ("on|off")
  Name,      ///< session name: letters, digits, '-', '_'
  List,      ///< comma-separated items of letters, digits, '-', '_'
  IdList,    ///< comma-separated non-negative integers (device ids)
  Repeatable ///< free text, may be given several times
};

/// One command-line option.
struct OptionSpec {
  std::string_view name; ///< long name, without dashes
  char short_name;       ///< e.g. 'o' for -o, 0 when none
  ValueKind kind;
  OptionGroup group;
  std::string_view value_name; ///< placeholder in help ("FILE")
  long min = 0, max = 0;       ///< range for Int
  std::string_view choices;    ///< "a|b" for Enum
  std::string_view help;
};

/// Every option, grouped as in the help text.
std::span<const OptionSpec> option_specs();

/// The option another tool's spelling `name` stands for ("hgtx-capture" ->
/// "annotation-capture"); `name` itself when it is prof's.
std::string_view canonical_option(std::string_view name);
/// The value another tool's spelling stands for (-c hgtx -> annotation).
std::string_view canonical_value(std::string_view option, std::string_view value);

/// The option with long name `name` (no dashes), or nullptr.
const OptionSpec *find_option(std::string_view name);

/// The option with short name `letter` (-o), or nullptr.
const OptionSpec *find_short_option(char letter);

/// Whether the option needs a value (an Optional one may have one after '=').
inline bool takes_value(const OptionSpec &spec) {
  return spec.kind != ValueKind::Flag && spec.kind != ValueKind::Switch &&
         spec.kind != ValueKind::Optional;
}

/// Title of a help section ("GCU capture options").
std::string_view group_title(OptionGroup group);

} // namespace prof::cli
