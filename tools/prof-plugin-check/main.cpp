// prof-plugin-check PLUGIN.so [--option k=v ...]: loads one plugin as prof
// does and holds it to the plugin ABI, one line per rule. Exit 0 when every
// rule passes, 1 when one fails, 2 on bad usage (nothing checked).
#include "tools/prof-plugin-check/check_arguments.hpp"
#include "tools/prof-plugin-check/descriptor_rules.hpp"
#include "tools/prof-plugin-check/exporter_checks.hpp"
#include "tools/prof-plugin-check/importer_checks.hpp"
#include "tools/prof-plugin-check/option_value_checks.hpp"
#include "tools/prof-plugin-check/rule_report.hpp"
#include "tools/prof-plugin-check/scratch_folder.hpp"
#include "tools/prof-plugin-check/source_checks.hpp"
#include "tools/prof-plugin-check/workload.hpp"

#include "core/config/option_validator.hpp"
#include "core/plugin_host/console.hpp"
#include "core/plugin_host/input_error.hpp"
#include "core/plugin_host/plugin_registry.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>

using namespace prof;
using namespace prof::plugin_check;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

/// The --option values, checked against the plugin's table by the host's
/// validator; throws InputError naming the first bad one.
std::map<std::string, std::string> base_options(const core::PluginInfo &plugin,
                                                const CheckArguments &arguments) {
  config::OptionValidator validator(plugin.name, plugin.options.data(), plugin.options.size());
  config::ValidatedOptions checked = validator.validate(arguments.options, false);
  if (!checked.ok()) throw core::InputError("--option: " + checked.errors.front());
  return {checked.values.begin(), checked.values.end()};
}

void check_robustness(RuleReport &report) {
  if (kAddressSanitizer)
    report.pass("robustness.asan", "every run above under AddressSanitizer");
  else
    report.skip("robustness.asan", "this checker is built without AddressSanitizer");
}

std::string read_sample(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The exporter's output of generated captures, as samples for its importer.
void add_exported_samples(ExporterChecks &exporter, ImporterChecks &importer, RuleReport &report) {
  std::vector<std::string> problems;
  for (const auto &[name, make] :
       {std::pair{"one-of-each", &make_one_of_each_capture},
        std::pair{"large", +[](GeneratedCapture &c) { make_large_capture(c, 20'000); }}}) {
    GeneratedCapture capture;
    make(capture);
    std::filesystem::path output;
    if (std::string problem = exporter.export_file(capture, &output); !problem.empty()) {
      problems.push_back(std::string(name) + ": " + problem);
      continue;
    }
    if (std::filesystem::is_regular_file(output))
      importer.add_sample("its export of the " + std::string(name) + " capture",
                          read_sample(output));
  }
  if (!problems.empty()) report.fail("importer.own-export", first_of(problems));
}

int check(const CheckArguments &arguments) {
  // Loaded first, as an application's libraries are there before the agent.
  std::unique_ptr<Workload> workload;
  if (!arguments.workload.empty()) workload = std::make_unique<Workload>(arguments.workload);
  core::PluginRegistry registry;
  registry.load(arguments.plugin);
  std::map<std::string, std::string> base;
  if (!registry.plugins().empty()) base = base_options(registry.plugins().front(), arguments);

  core::Console console;
  RuleReport report(console);
  console.line("prof-plugin-check " + arguments.plugin.string());
  const core::PluginInfo *plugin = check_descriptor_rules(registry, report);
  if (plugin == nullptr) {
    for (const char *family : {"options", "lifecycle", "events", "exporter"})
      report.skip(family, "the plugin did not load");
  } else if (plugin->kind == PROF_KIND_SOURCE) {
    SourceChecks source(*plugin, base, workload.get());
    check_option_values(
        *plugin, base, [&](const core::OptionValues &v) { return source.try_options(v); }, report);
    source.check_lifecycle(report);
    source.check_events(report);
  } else {
    ScratchFolder scratch;
    std::optional<ExporterChecks> exporter;
    if (plugin->kind == PROF_KIND_EXPORTER) {
      exporter.emplace(*plugin, base, scratch.path());
      check_option_values(
          *plugin, base, [&](const core::OptionValues &v) { return exporter->try_options(v); },
          report);
      exporter->check(report);
    }
    if (plugin->importer != nullptr) {
      ImporterChecks importer(*plugin, scratch.path());
      for (const auto &sample : arguments.samples)
        importer.add_sample(sample.string(), read_sample(sample));
      // A plugin that writes its format too reads back its own output.
      if (exporter) add_exported_samples(*exporter, importer, report);
      importer.check(report);
    }
  }
  check_robustness(report);
  report.summary(plugin ? plugin->name : arguments.plugin.filename().string());
  return report.failed() ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  spdlog::set_level(spdlog::level::warn);
  try {
    const CheckArguments arguments = parse_check_arguments(argc, argv);
    if (arguments.help) {
      std::cout << check_usage();
      return 0;
    }
    return check(arguments);
  } catch (const core::InputError &e) {
    std::fprintf(stderr, "prof-plugin-check: %s\n", e.what());
    return 2;
  }
}
