#include "tools/prof/capture/query_command.hpp"

#include "core/catalog/catalog.hpp"
#include "core/events/event_bus.hpp"
#include "core/plugin_host/source_instance.hpp"
#include "tools/prof/capture/plugin_selection.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <cstdio>

namespace prof::tool {

namespace {
constexpr std::pair<const char *, const char *> kQueries[] = {
    {"query-activities", "activities"}, {"query-events", "events"},
    {"query-trace", "trace"},           {"export-activities", "export-activities"},
    {"export-events", "export-events"},
};
} // namespace

bool is_query(const cli::CommandLine &command) {
  for (auto [option, what] : kQueries)
    if (command.has(option)) return true;
  return false;
}

int run_query(const RunContext &context) {
  PluginSelection selection = select_plugins(context.command, context.registry);
  std::string option, what;
  for (auto [o, w] : kQueries)
    if (context.command.has(o)) option = o, what = w;
  core::Catalog catalog;
  core::EventBus bus(core::EventBusConfig{1 << 16, 1 << 15, 1});
  core::CaptureContext capture{catalog, bus, context.console,
                               prof_session_info{sizeof(prof_session_info), "query", 0, "", ""}};
  for (const SelectedPlugin &selected : selection.sources) {
    core::SourceInstance source(*selected.plugin, selected.options, capture);
    if (!source.create()) {
      print_error(source.error());
      return kExitFailure;
    }
    auto print = [](void *, const char *line) { std::printf("%s\n", line ? line : ""); };
    if (source.query(what, print, nullptr)) return kExitOk;
    if (!source.error().empty()) {
      print_error(source.error());
      return kExitUsage;
    }
  }
  throw cli::UsageError("--" + option + " is not available: no installed source answers it");
}

} // namespace prof::tool
