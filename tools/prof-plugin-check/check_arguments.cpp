#include "tools/prof-plugin-check/check_arguments.hpp"

#include "core/plugin_host/input_error.hpp"

#include <string_view>

namespace prof::plugin_check {
namespace {

std::pair<std::string, std::string> option_pair(std::string_view text) {
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0)
    throw core::InputError("--option '" + std::string(text) + "': expected KEY=VALUE");
  return {std::string(text.substr(0, equals)), std::string(text.substr(equals + 1))};
}

} // namespace

std::string check_usage() {
  return "usage: prof-plugin-check PLUGIN.so [--option KEY=VALUE ...] [--workload LIB.so]\n"
         "                         [--sample FILE ...]\n"
         "Loads one prof plugin as prof does and checks it against the plugin ABI:\n"
         "descriptor, option table, lifecycle orders, emitted events (sources) and\n"
         "begin/consume/end (exporters), probe/read (importers). One line per rule;\n"
         "exit 0 when every rule passes, 1 when one fails, 2 on bad usage.\n"
         "  --option KEY=VALUE  a value every run of the plugin starts from (repeatable)\n"
         "  --workload LIB.so   a library standing in for the application: the checker\n"
         "                      calls its prof_check_workload() while the source runs\n"
         "  --sample FILE       a file an importer reads (repeatable): probed, imported,\n"
         "                      cut and fuzzed (an exporter's own output is used too)\n"
         "  -h, --help          this text\n";
}

CheckArguments parse_check_arguments(int argc, const char *const *argv) {
  CheckArguments arguments;
  bool have_plugin = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      arguments.help = true;
    } else if (arg == "--option") {
      if (i + 1 >= argc) throw core::InputError("--option: expected KEY=VALUE after it");
      arguments.options.push_back(option_pair(argv[++i]));
    } else if (arg == "--workload" || arg.starts_with("--workload=")) {
      if (arg == "--workload" && i + 1 >= argc)
        throw core::InputError("--workload: expected a shared library after it");
      arguments.workload =
          arg == "--workload" ? std::string(argv[++i]) : std::string(arg.substr(11));
    } else if (arg == "--sample" || arg.starts_with("--sample=")) {
      if (arg == "--sample" && i + 1 >= argc)
        throw core::InputError("--sample: expected a trace file after it");
      const std::string sample =
          arg == "--sample" ? std::string(argv[++i]) : std::string(arg.substr(9));
      std::error_code ec;
      if (!std::filesystem::is_regular_file(sample, ec))
        throw core::InputError("--sample '" + sample + "': expected a trace file, found none");
      arguments.samples.emplace_back(sample);
    } else if (arg.starts_with("--option=")) {
      arguments.options.push_back(option_pair(arg.substr(9)));
    } else if (arg.starts_with("-")) {
      throw core::InputError("unknown option '" + std::string(arg) +
                             "' (expected --option KEY=VALUE, --workload LIB.so, --sample FILE or --help)");
    } else if (have_plugin) {
      throw core::InputError("'" + std::string(arg) + "': expected one plugin file, got a second");
    } else {
      arguments.plugin = std::string(arg);
      have_plugin = true;
    }
  }
  if (arguments.help) return arguments;
  if (!have_plugin) throw core::InputError("no plugin given (expected PLUGIN.so)");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(arguments.plugin, ec))
    throw core::InputError("'" + arguments.plugin.string() +
                           "' is not a file (expected a plugin .so file)");
  return arguments;
}

} // namespace prof::plugin_check
