#include "tools/prof/cli/help_text.hpp"

#include "tools/prof/cli/option_table.hpp"
#include "tools/prof/cli/plugin_mapping.hpp"

#include <algorithm>

#ifndef PROF_VERSION
#define PROF_VERSION "0.0.0"
#endif

namespace prof::cli {
namespace {

constexpr OptionGroup kGroups[] = {
    OptionGroup::Gcu,     OptionGroup::Cpu,    OptionGroup::Print,   OptionGroup::InputOutput,
    OptionGroup::Control, OptionGroup::Plugin, OptionGroup::Advanced};

// Where each source plugin runs (its descriptor's scope), as asys marks
// its options: inside the application, or in prof for the whole system.
constexpr std::pair<std::string_view, bool> kSourceRunsInApp[] = {
    {"gcu", true},  {"sip-pmc", true}, {"osrt", true},      {"nvtx", true},      {"cuda", true},
    {"pccl", true}, {"mpi", true},     {"cpu-util", false}, {"cpu-perf", false}, {"nic", false}};

std::string spelling(const OptionSpec &spec) {
  std::string text = spec.short_name ? std::string("-") + spec.short_name + ", " : "    ";
  text += "--" + std::string(spec.name);
  if (!spec.value_name.empty())
    text += (spec.kind == ValueKind::Optional ? "" : " ") + std::string(spec.value_name);
  return text;
}

std::string option_lines(bool (*shown)(const OptionSpec &, const void *), const void *context) {
  std::size_t width = 0;
  for (const auto &spec : option_specs())
    width = std::max(width, spelling(spec).size());
  std::string text;
  for (auto group : kGroups) {
    std::string lines;
    for (const auto &spec : option_specs()) {
      if (spec.group != group || !shown(spec, context)) continue;
      std::string line = "  " + spelling(spec);
      line.resize(width + 4, ' ');
      line += spec.help;
      if (const std::string_view mark = scope_mark(spec.name); !mark.empty())
        line += " " + std::string(mark);
      lines += line + "\n";
    }
    if (!lines.empty()) text += "\n" + std::string(group_title(group)) + ":\n" + lines;
  }
  return text;
}

} // namespace

std::string_view scope_mark(std::string_view option) {
  if (option == "trace") return "[application scope]"; // asys marks -t so
  for (const auto &mapping : option_mappings()) {
    if (mapping.option != option) continue;
    for (const auto &[plugin, in_app] : kSourceRunsInApp)
      if (plugin == mapping.plugin) return in_app ? "[application scope]" : "[system scope]";
  }
  return {};
}

std::string help_text() {
  std::string text = "Usage: prof [options] application [application-arguments]\n";
  for (const auto &sub : subcommand_specs())
    text += "       prof " + std::string(sub.name) + " " + std::string(sub.arguments) + "\n";
  text += "\nCommands:\n";
  for (const auto &sub : subcommand_specs()) {
    std::string line = "  " + std::string(sub.name);
    line.resize(12, ' ');
    text += line + std::string(sub.summary) + "\n";
  }
  text += "\n'prof COMMAND --help' lists a command's own options. Options start with - or --;\n"
          "a value follows after a blank or '=' (--opt value, --opt=value, -opt value).\n"
          "prof's options end at the application's name or at '--'; what follows belongs\n"
          "to the application. [application scope]: collected inside the application;\n"
          "[system scope]: collected by prof for the whole machine.\n";
  text += option_lines([](const OptionSpec &, const void *) { return true; }, nullptr);
  text += "\nSee configs/README.md for YAML capture profiles (--config).\n";
  return text;
}

std::string help_text(const SubcommandSpec &subcommand) {
  std::string text = "Usage: prof " + std::string(subcommand.name) + " " +
                     std::string(subcommand.arguments) + "\n\n" + std::string(subcommand.summary) +
                     ".\n";
  text += option_lines(
      [](const OptionSpec &spec, const void *context) {
        return refusal(*static_cast<const SubcommandSpec *>(context), spec).empty();
      },
      &subcommand);
  return text;
}

std::string version_text() { return std::string("prof ") + PROF_VERSION; }

} // namespace prof::cli
