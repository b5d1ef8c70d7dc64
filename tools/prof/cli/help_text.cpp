#include "tools/prof/cli/help_text.hpp"

#include "tools/prof/cli/option_table.hpp"

#include <algorithm>

#ifndef PROF_VERSION
#define PROF_VERSION "0.0.0"
#endif

namespace prof::cli {
namespace {

constexpr OptionGroup kGroups[] = {
    OptionGroup::Gcu,     OptionGroup::Cpu,    OptionGroup::Print,   OptionGroup::InputOutput,
    OptionGroup::Control, OptionGroup::Plugin, OptionGroup::Advanced};

std::string spelling(const OptionSpec &spec) {
  std::string text = spec.short_name ? std::string("-") + spec.short_name + ", " : "    ";
  text += "--" + std::string(spec.name);
  if (!spec.value_name.empty()) text += " " + std::string(spec.value_name);
  return text;
}

} // namespace

std::string help_text() {
  std::size_t width = 0;
  for (const auto &spec : option_specs())
    width = std::max(width, spelling(spec).size());

  std::string text =
      "Usage: prof [options] application [application-arguments]\n"
      "       prof profile [options] application [application-arguments]\n"
      "       prof plugins [--plugin-path DIR]\n"
      "       prof export [--type TYPE] [-o FILE] [--force-overwrite] REPORT\n"
      "       prof merge -o FILE [--force-overwrite] REPORT|FOLDER...\n"
      "       prof stats [--report NAMES] [--format table|csv|json] [-o FILE] REPORT\n"
      "       prof launch [options] application   (collection off until prof start)\n"
      "       prof start [-o NAME] | stop | suspend | resume | cancel | shutdown [--session NAME]\n"
      "       prof attach [options] PID[,PID...]\n"
      "       prof sessions list\n"
      "\n"
      "Options start with - or --; a value follows after a blank or '=' (--opt value,\n"
      "--opt=value, -opt value). prof's options end at the application's name or at\n"
      "'--'; what follows belongs to the application.\n";
  for (auto group : kGroups) {
    text += "\n" + std::string(group_title(group)) + ":\n";
    for (const auto &spec : option_specs()) {
      if (spec.group != group) continue;
      std::string line = "  " + spelling(spec);
      line.resize(width + 4, ' ');
      text += line + std::string(spec.help) + "\n";
    }
  }
  text += "\nSee configs/README.md for YAML capture profiles (--config).\n";
  return text;
}

std::string version_text() { return std::string("prof ") + PROF_VERSION; }

} // namespace prof::cli
