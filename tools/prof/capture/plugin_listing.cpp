#include "tools/prof/capture/plugin_listing.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

namespace prof::tool {

namespace {
// Lays out rows as columns two spaces apart; the last column is not padded.
std::string table(const std::vector<std::vector<std::string>> &rows, const std::string &indent) {
  std::vector<size_t> widths;
  for (const auto &row : rows)
    for (size_t i = 0; i < row.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      widths[i] = std::max(widths[i], row[i].size());
    }
  std::string out;
  for (const auto &row : rows) {
    std::string line = indent;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

struct SkippedPlugin {
  const char *name;
  const char *reason;
};
// At least one row, so the array is never empty.
constexpr SkippedPlugin kSkipped[] = {
#include "skipped_plugins.inc"
    {nullptr, nullptr},
};

const char *type_name(prof_option_type type) {
  switch (type) {
  case PROF_OPTION_BOOL:
    return "bool";
  case PROF_OPTION_INT:
    return "int";
  case PROF_OPTION_DOUBLE:
    return "number";
  case PROF_OPTION_STRING:
    return "string";
  case PROF_OPTION_ENUM:
    return "enum";
  }
  return "?";
}

std::string number(double value, prof_option_type type) {
  char text[64];
  if (type == PROF_OPTION_INT)
    std::snprintf(text, sizeof text, "%.0f", value);
  else
    std::snprintf(text, sizeof text, "%g", value);
  return text;
}
} // namespace

std::string plugin_list_text(const core::PluginRegistry &registry) {
  std::string out;
  if (registry.plugins().empty()) {
    out += "No plugins found.\n";
  } else {
    std::vector<std::vector<std::string>> rows{{"NAME", "KIND", "SCOPE", "VERSION", "ABI", "PATH"}};
    for (const auto &p : registry.plugins())
      rows.push_back({p.name, core::kinds_of(p), core::scope_name(p.scope), p.version,
                      std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor),
                      p.path.string()});
    out += "Plugins:\n" + table(rows, "  ");
    out += "\n";
    std::vector<std::vector<std::string>> about;
    for (const auto &p : registry.plugins())
      about.push_back({p.name, p.description + (p.vendor.empty() ? "" : " (" + p.vendor + ")")});
    out += "Descriptions:\n" + table(about, "  ");
  }
  if (kSkipped[0].name != nullptr) {
    out += "\nNot built here:\n";
    for (const auto &skipped : kSkipped)
      if (skipped.name != nullptr)
        out += "  " + std::string(skipped.name) + ": " + skipped.reason + "\n";
  }
  if (!registry.refusals().empty()) {
    out += "\nRefused:\n";
    for (const auto &r : registry.refusals())
      out += "  " + r.message() + "\n";
  }
  if (!registry.warnings().empty()) {
    out += "\nWarnings:\n";
    for (const auto &w : registry.warnings())
      out += "  " + w + "\n";
  }
  return out;
}

std::string plugin_help_text(const core::PluginInfo &plugin) {
  std::string out = "Plugin " + plugin.name + " " + plugin.version + " (" +
                    core::kinds_of(plugin) + ", " + core::scope_name(plugin.scope) +
                    " scope): " + plugin.description + "\n" + "File: " + plugin.path.string() +
                    "\n";
  if (plugin.options.empty()) return out + "Options: none\n";
  std::vector<std::vector<std::string>> rows{{"OPTION", "TYPE", "DEFAULT", "ALLOWED", "HELP"}};
  for (const auto &o : plugin.options) {
    std::string allowed = "any";
    if (o.type == PROF_OPTION_ENUM && o.choices)
      allowed = o.choices;
    else if (o.type == PROF_OPTION_BOOL)
      allowed = "true,false";
    else if ((o.type == PROF_OPTION_INT || o.type == PROF_OPTION_DOUBLE) && o.min <= o.max)
      allowed = number(o.min, o.type) + ".." + number(o.max, o.type);
    rows.push_back({o.name, type_name(o.type), o.default_value ? o.default_value : "-", allowed,
                    o.help ? o.help : ""});
  }
  return out + "Options (--plugin \"" + plugin.name + " key=value ...\"):\n" + table(rows, "  ");
}

} // namespace prof::tool
