// exporter.*: an exporter driven through core's ExporterInstance (the
// host prof uses) with an empty capture, one event of each type, and a
// large generated capture, each into a fresh folder of a scratch
// directory. Every run must succeed and, for an exporter with a `path`
// option, leave its output there and nothing else.
#pragma once

#include "tools/prof-plugin-check/generated_capture.hpp"
#include "tools/prof-plugin-check/rule_report.hpp"

#include "core/plugin_host/option_values.hpp"
#include "core/plugin_host/plugin_registry.hpp"

#include <filesystem>
#include <map>
#include <string>

namespace prof::plugin_check {

class ExporterChecks {
public:
  /// `base`: the values every run starts from; `scratch`: an empty folder.
  ExporterChecks(const core::PluginInfo &plugin, std::map<std::string, std::string> base,
                 std::filesystem::path scratch);

  /// begin and end on an empty capture with `values`: "" when they succeeded.
  std::string try_options(const core::OptionValues &values);
  void check(RuleReport &report);
  /// Exports `capture` with the base values into a fresh folder; "" when it
  /// went well (`*output` is then the file written), else why not.
  std::string export_file(const GeneratedCapture &capture, std::filesystem::path *output);

private:
  /// Exports `capture` with `values`; "" when it went well, else why not.
  std::string export_capture(const GeneratedCapture &capture,
                             std::map<std::string, std::string> values,
                             std::filesystem::path *written = nullptr);

  const core::PluginInfo &plugin_;
  std::map<std::string, std::string> base_;
  std::filesystem::path scratch_;
  int runs_ = 0;
};

} // namespace prof::plugin_check
