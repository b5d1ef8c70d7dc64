#include "tools/prof/cli/command_line_parser.hpp"

#include "tools/prof/cli/option_rules.hpp"
#include "tools/prof/cli/subcommand_table.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace po = boost::program_options;

namespace prof::cli {
namespace {

std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }

bool is_name_char(unsigned char c) { return std::isalnum(c) || c == '-' || c == '_'; }

bool split_items(std::string_view text, bool (*item_ok)(std::string_view)) {
  if (text.empty()) return false;
  while (true) {
    const auto comma = text.find(',');
    if (!item_ok(text.substr(0, comma))) return false;
    if (comma == std::string_view::npos) return true;
    text.remove_prefix(comma + 1);
  }
}

bool is_name(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), is_name_char);
}

bool is_id(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(),
                                      [](unsigned char c) { return std::isdigit(c) != 0; });
}

std::string choices_text(std::string_view choices) {
  std::vector<std::string_view> items;
  while (true) {
    const auto bar = choices.find('|');
    items.push_back(choices.substr(0, bar));
    if (bar == std::string_view::npos) break;
    choices.remove_prefix(bar + 1);
  }
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += (i + 1 == items.size()) ? " or " : ", ";
    out += items[i];
  }
  return out;
}

config::ValueCheck check_int(const OptionSpec &spec, std::string_view value, std::string dashed) {
  long number = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size())
    return {{}, dashed + " " + in_quotes(value) + " is not a number"};
  if (number < spec.min || number > spec.max)
    return {{},
            dashed + " " + std::to_string(number) + " is out of range: expected " +
                std::to_string(spec.min) + " to " + std::to_string(spec.max)};
  return {std::to_string(number), {}};
}

/// One option found by the pre-scan, in the "--name" / "--name=value" form
/// handed to Boost.
struct ScannedOption {
  const OptionSpec *spec;
  std::string token;
};

/// Splits argv into prof's options and the application.
class ArgumentScanner {
public:
  explicit ArgumentScanner(const std::vector<std::string> &args) : args_(args) {}

  void scan(CommandLine &result, std::vector<std::string> &tokens) {
    std::size_t i = 0;
    if (!args_.empty()) subcommand_ = find_subcommand(args_[0]);
    if (subcommand_) {
      if (subcommand_->options == OptionSet::Own)
        throw UsageError("'prof " + args_[0] + "' takes its own arguments (see prof " + args_[0] +
                         " --help)");
      result.subcommand = args_[0];
      result.subcommand_given = true;
      if (!subcommand_->implies.empty()) tokens.push_back("--" + std::string(subcommand_->implies));
      i = 1;
    }
    for (; i < args_.size(); ++i) {
      const std::string &arg = args_[i];
      if (arg == "--") {
        result.app.assign(args_.begin() + static_cast<long>(i) + 1, args_.end());
        return;
      }
      if (arg.size() < 2 || arg[0] != '-') {
        result.app.assign(args_.begin() + static_cast<long>(i), args_.end());
        return;
      }
      if (std::string token = scan_option(i); !token.empty()) tokens.push_back(std::move(token));
    }
  }

private:
  std::string scan_option(std::size_t &i) {
    const std::string &arg = args_[i];
    const bool double_dash = arg.starts_with("--");
    const std::string body = arg.substr(double_dash ? 2 : 1);
    const auto equals = body.find('=');
    const std::string name = body.substr(0, equals);
    std::optional<std::string> value;
    if (equals != std::string::npos) value = body.substr(equals + 1);

    const OptionSpec *spec = find_option(name);
    if (!spec && !double_dash) { // -o NAME, -oNAME, -o=NAME
      spec = find_short_option(body[0]);
      if (spec && body.size() > 1) {
        if (body[1] == '=')
          value = body.substr(2);
        else if (takes_value(*spec))
          value = body.substr(1);
        else
          spec = nullptr;
      } else if (spec) {
        value.reset();
      }
    }
    if (!spec)
      throw UsageError("unknown option " + in_quotes(arg.substr(0, arg.find('='))) +
                       " (see prof --help)");
    if (subcommand_) {
      if (const std::string why = refusal(*subcommand_, *spec); !why.empty()) throw UsageError(why);
    }
    const std::string dashed = "--" + std::string(spec->name);
    if (spec->kind == ValueKind::Switch) return scan_switch(*spec, dashed, value, i);
    // Never the next argument, unless it is one of the option's words:
    // `--debug-dump ./app` names the application, `--memory-profile events`
    // asks for events.
    if (spec->kind == ValueKind::Optional) {
      if (value && value->empty()) throw UsageError(dashed + " needs a value after '='");
      if (!value && !spec->choices.empty() && i + 1 < args_.size() &&
          check_option_value(*spec, args_[i + 1]).ok())
        value = args_[++i];
      return value ? dashed + "=" + *value : dashed;
    }
    if (!takes_value(*spec)) {
      if (value) throw UsageError(dashed + " takes no value");
      return dashed;
    }
    if (!value) {
      if (i + 1 >= args_.size()) throw UsageError(dashed + " needs a value");
      value = args_[++i];
    }
    if (value->empty()) throw UsageError(dashed + " needs a value");
    return dashed + "=" + *value;
  }

  // Alone it is on; a following true or false (asys -f true) is its value.
  std::string scan_switch(const OptionSpec &spec, const std::string &dashed,
                          std::optional<std::string> value, std::size_t &i) {
    if (!value && i + 1 < args_.size() && (args_[i + 1] == "true" || args_[i + 1] == "false"))
      value = args_[++i];
    if (!value) return dashed;
    const config::ValueCheck check = check_option_value(spec, *value);
    if (!check.ok()) throw UsageError(check.error);
    return check.value == "true" ? dashed : std::string();
  }

  const std::vector<std::string> &args_;
  const SubcommandSpec *subcommand_ = nullptr;
};

// Made once: the table never changes, and a parse only reads it.
const po::options_description &boost_options() {
  static const po::options_description description = [] {
    po::options_description made;
    for (const auto &spec : option_specs()) {
      const std::string name(spec.name);
      if (spec.kind == ValueKind::Flag || spec.kind == ValueKind::Switch)
        made.add_options()(name.c_str(), po::bool_switch());
      else if (spec.kind == ValueKind::Optional)
        made.add_options()(name.c_str(), po::value<std::string>()->implicit_value(""));
      else if (spec.kind == ValueKind::Repeatable)
        made.add_options()(name.c_str(), po::value<std::vector<std::string>>()->composing());
      else
        made.add_options()(name.c_str(), po::value<std::string>());
    }
    return made;
  }();
  return description;
}

void add_option(CommandLine &result, const OptionSpec &spec, const std::string &value) {
  if (spec.name == "plugin") {
    PluginSpec plugin = parse_plugin_spec(value);
    for (const auto &existing : result.plugins)
      if (existing.name == plugin.name)
        throw UsageError("--plugin " + plugin.name + " is given more than once");
    result.plugins.push_back(std::move(plugin));
    return;
  }
  if (spec.name == "plugin-path") {
    if (value.empty()) throw UsageError("--plugin-path needs a value");
    result.plugin_paths.push_back(value);
    return;
  }
  if (spec.kind == ValueKind::Optional) {
    config::ValueCheck check = check_option_value(spec, value);
    if (!check.ok()) throw UsageError(check.error);
    result.set(std::string(spec.name), check.value);
    return;
  }
  if (!takes_value(spec)) {
    result.set(std::string(spec.name), "true");
    return;
  }
  config::ValueCheck check = check_option_value(spec, value);
  if (!check.ok()) throw UsageError(check.error);
  if (spec.name == "config") result.config_path = check.value;
  const std::string_view name = canonical_option(spec.name);
  // Two spellings of one option on the command line (a profile's value yields).
  if (const GivenOption *given = result.find(name); given && given->origin.empty())
    throw UsageError(name != spec.name
                         ? "--" + std::string(spec.name) + " is --" + std::string(name) +
                               " spelled another way, and both are given: give one"
                         : "--" + std::string(name) +
                               " is also given in another tool's spelling: give one");
  result.set(std::string(name), std::string(canonical_value(name, check.value)));
}

} // namespace

namespace {

config::ValueCheck one_of_choices(const OptionSpec &spec, std::string_view value,
                                  const std::string &dashed) {
  std::string_view rest = spec.choices;
  while (true) {
    const auto bar = rest.find('|');
    if (rest.substr(0, bar) == value) return {std::string(value), {}};
    if (bar == std::string_view::npos) break;
    rest.remove_prefix(bar + 1);
  }
  return {{},
          dashed + " " + in_quotes(value) + " is not valid: expected " +
              choices_text(spec.choices)};
}

} // namespace

config::ValueCheck check_option_value(const OptionSpec &spec, std::string_view value) {
  const std::string dashed = "--" + std::string(spec.name);
  if (value.empty() && takes_value(spec)) return {{}, dashed + " needs a value"};
  switch (spec.kind) {
  case ValueKind::Optional:
    if (value.empty() || spec.choices.empty()) return {std::string(value), {}};
    return one_of_choices(spec, value, dashed);
  case ValueKind::Flag:
  case ValueKind::Text:
  case ValueKind::Repeatable:
    return {std::string(value), {}};
  case ValueKind::Int:
    return check_int(spec, value, dashed);
  case ValueKind::Switch:
  case ValueKind::Enum:
    return one_of_choices(spec, value, dashed);
  case ValueKind::Name:
    if (!is_name(value))
      return {{},
              dashed + " " + in_quotes(value) +
                  " is not a valid session name: use letters, digits, '-' and '_'"};
    return {std::string(value), {}};
  case ValueKind::List:
    if (!split_items(value, is_name))
      return {{},
              dashed + " " + in_quotes(value) +
                  " is not valid: expected a comma-separated list of names"};
    return {std::string(value), {}};
  case ValueKind::IdList:
    if (!split_items(value, is_id))
      return {{},
              dashed + " " + in_quotes(value) +
                  " is not valid: expected comma-separated device ids, e.g. 0,1"};
    return {std::string(value), {}};
  }
  return {std::string(value), {}};
}

CommandLine parse_arguments(const std::vector<std::string> &args) {
  CommandLine result;
  std::vector<std::string> tokens;
  ArgumentScanner(args).scan(result, tokens);

  const po::options_description &description = boost_options();
  po::parsed_options parsed(&description);
  try {
    const auto style =
        (po::command_line_style::unix_style | po::command_line_style::allow_long_disguise) &
        ~po::command_line_style::allow_guessing;
    parsed = po::command_line_parser(tokens).options(description).style(style).run();
    po::variables_map map;
    po::store(parsed, map); // rejects options given twice
  } catch (const po::multiple_occurrences &error) {
    throw UsageError(error.get_option_name() + " is given more than once");
  } catch (const po::error &error) {
    throw UsageError(error.what());
  }
  for (const auto &option : parsed.options) {
    const OptionSpec *spec = find_option(option.string_key);
    if (!spec) throw UsageError("unknown option '--" + option.string_key + "' (see prof --help)");
    add_option(result, *spec, option.value.empty() ? std::string() : option.value.front());
  }
  return result;
}

CommandLine parse_command_line(int argc, const char *const argv[]) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i)
    args.emplace_back(argv[i]);
  CommandLine result = parse_arguments(args);
  check_option_rules(result);
  return result;
}

} // namespace prof::cli
