// Checks plugin option values against the plugin's option table.
#pragma once

#include <prof/plugin.h>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace prof::config {

/// Option key/value pairs in the order they were given.
using OptionValues = std::vector<std::pair<std::string, std::string>>;

/// The outcome of checking one value: normalized text, or an error reason.
struct ValueCheck {
  std::string value; ///< normalized text ("true", "50", "gcu") when ok
  std::string error; ///< e.g. "500 is out of range 1..100"; empty when ok
  bool ok() const { return error.empty(); }
};

/// The outcome of checking a set of key/value pairs.
struct ValidatedOptions {
  OptionValues values;             ///< normalized values (plus defaults when asked)
  std::vector<std::string> errors; ///< one line each, empty when all is well
  bool ok() const { return errors.empty(); }
};

/// Validates key=value pairs for one plugin against its prof_option_desc
/// table. Used for --plugin "NAME k=v" and for YAML capture profiles.
///
/// Bool accepts true/false, on/off, yes/no, 1/0 (any case) and normalizes to
/// true/false; INT takes a decimal integer, DOUBLE a decimal number, both
/// checked against [min, max] unless min > max; ENUM must be one of the
/// comma-separated choices (case-insensitive, normalized to the table's
/// spelling); STRING is taken as is.
class OptionValidator {
public:
  OptionValidator(std::string plugin, std::span<const prof_option_desc> options);
  OptionValidator(std::string plugin, const prof_option_desc *options, std::size_t count);

  const std::string &plugin() const { return plugin_; }
  std::span<const prof_option_desc> options() const { return options_; }

  /// The descriptor of `key`, nullptr when the plugin has no such option.
  const prof_option_desc *find(std::string_view key) const;

  /// "plugin 'cpu-util' has no option 'freq' (options: frequency, cpu, memory)"
  std::string unknown_option_message(std::string_view key) const;

  /// "option 'frequency' of plugin 'cpu-util': " + reason
  std::string value_message(std::string_view key, std::string_view reason) const;

  /// Checks one value against its descriptor; the error is the bare reason.
  static ValueCheck check_value(const prof_option_desc &option, std::string_view value);
  /// Why the table's own default of `option` breaks its type, range or
  /// choices ("its default '5000' is not valid: 5000 is out of range
  /// 1..1000"); empty when it does not, or when there is no default.
  static std::string default_problem(const prof_option_desc &option);

  /// Checks every pair: unknown keys, keys given twice, bad values. With
  /// `fill_defaults`, options not given that have a default are appended in
  /// table order. Error lines are the messages above.
  ValidatedOptions validate(const OptionValues &given, bool fill_defaults = true) const;

private:
  std::string plugin_;
  std::span<const prof_option_desc> options_;
};

/// Parses a bool word (true/false, on/off, yes/no, 1/0, any case).
bool parse_bool_word(std::string_view text, bool &value);

} // namespace prof::config
