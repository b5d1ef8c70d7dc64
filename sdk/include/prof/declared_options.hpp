// A plugin's options read against its option table, the one place each
// default is written: an option the host hands no value for (a test's fake
// host; an option declared without default) is the table's default, and no
// plugin code writes a fallback of its own.
#ifndef PROF_DECLARED_OPTIONS_HPP
#define PROF_DECLARED_OPTIONS_HPP

#include <prof/plugin.h>

#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace prof {

class DeclaredOptions {
public:
  /// `host`: a prof::Host or prof::ExportHost (anything with option(name)
  /// returning std::optional<std::string_view>); it must outlive this.
  /// `table`: the plugin's option table, as its descriptor declares it.
  template <class AnyHost>
  DeclaredOptions(const AnyHost &host, std::span<const prof_option_desc> table)
      : host_(&host), table_(table),
        lookup_([](const void *any, const char *name) -> std::optional<std::string_view> {
          return static_cast<const AnyHost *>(any)->option(name);
        }) {}

  /// The value the host hands; nullopt when it hands none.
  std::optional<std::string_view> given(const char *name) const { return lookup_(host_, name); }
  /// The table's default for `name`; "" when it declares none.
  std::string_view default_of(std::string_view name) const {
    const prof_option_desc *declared = find(name);
    return declared != nullptr && declared->default_value != nullptr ? declared->default_value : "";
  }
  /// The value the host hands, else the declared default, else "".
  std::string_view text(const char *name) const {
    if (const auto value = given(name)) return *value;
    return default_of(name);
  }
  /// text() as an integer (0 when empty).
  long long integer(const char *name) const {
    return std::strtoll(std::string(text(name)).c_str(), nullptr, 10);
  }
  /// text() as a number (0 when empty).
  double real(const char *name) const {
    return std::strtod(std::string(text(name)).c_str(), nullptr);
  }
  /// text() as a boolean: true, on, yes and 1 are true.
  bool flag(const char *name) const {
    const std::string_view value = text(name);
    return value == "true" || value == "on" || value == "yes" || value == "1";
  }

private:
  const prof_option_desc *find(std::string_view name) const {
    for (const prof_option_desc &option : table_)
      if (option.name != nullptr && name == option.name) return &option;
    return nullptr;
  }

  const void *host_;
  std::span<const prof_option_desc> table_;
  std::optional<std::string_view> (*lookup_)(const void *, const char *);
};

} // namespace prof

#endif
