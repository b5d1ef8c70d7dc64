// importer.*: an importer driven through core's import host (the one prof
// import uses). Its probe must answer 0 for what is no trace; each sample
// (the files given with --sample, and for a plugin that also exports, its
// own export of generated captures) must be taken by the probe and import
// into a report with events; cut and mutated samples must each import or
// be refused with one line, never crash, in a child process so that a
// crash is named with the input that caused it.
#pragma once

#include "tools/prof-plugin-check/rule_report.hpp"

#include "core/plugin_host/plugin_registry.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace prof::plugin_check {

class ImporterChecks {
public:
  /// `scratch`: an empty folder for the reports written.
  ImporterChecks(const core::PluginInfo &plugin, std::filesystem::path scratch);

  /// Adds a file to import: its bytes and where it came from.
  void add_sample(const std::string &origin, std::string bytes);
  void check(RuleReport &report);

private:
  struct Sample {
    std::string origin, bytes;
  };
  /// Imports `bytes`: "" when it imported with events; "refused: LINE" when
  /// the importer refused it with one line; else what went wrong.
  std::string import_bytes(const std::string &name, const std::string &bytes,
                           uint64_t *events = nullptr);
  void check_probe(RuleReport &report);
  void check_samples(RuleReport &report);
  /// Runs `inputs` of each sample through import_bytes in a child process.
  void check_in_child(RuleReport &report, const std::string &rule, bool mutate);

  const core::PluginInfo &plugin_;
  std::filesystem::path scratch_;
  std::vector<Sample> samples_;
  int runs_ = 0;
};

} // namespace prof::plugin_check
