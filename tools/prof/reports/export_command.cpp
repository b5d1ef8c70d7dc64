#include "tools/prof/reports/export_command.hpp"

#include "tools/prof/cli/step_numbers.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/reports/critical_path_mark.hpp"
#include "tools/prof/reports/saved_report.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace po = boost::program_options;

namespace prof::tool {

namespace {
/// Steps whose critical paths --mark draws when --step names none.
constexpr size_t kSlowestStepsMarked = 3;

// What follows the report's name, less its extension, in the output's name
// when -o is not given.
std::string extension_for(const std::string &type) {
  if (type == "perfetto") return ".perfetto-trace";
  if (type == "chrome-json") return ".json";
  if (type == "kineto") return ".pt.trace.json";
  if (type == "sqlite") return ".sqlite";
  if (type == "folded") return ".folded";
  if (type == "pprof") return ".pb.gz";
  if (type == "csv") return "-csv/"; // a folder: one CSV per table
  return "." + type;
}

// Exporters that write a file: they take a `path` option.
std::vector<std::string> file_exporters(const core::PluginRegistry &registry) {
  std::vector<std::string> names;
  for (const auto &p : registry.plugins())
    if (p.kind == PROF_KIND_EXPORTER && p.option("path")) names.push_back(p.name);
  return names;
}

// --rotate's plugin option: per-step=true for "step", rotate=N for N seconds.
std::pair<std::string, std::string> rotate_option(const std::string &type,
                                                  const std::string &value) {
  if (type != "pprof")
    throw cli::UsageError("export: --rotate is for --type pprof, not '" + type + "'");
  if (value == "step") return {"per-step", "true"};
  const bool seconds = !value.empty() && value.size() <= 8 &&
                       value.find_first_not_of("0123456789") == std::string::npos &&
                       std::stoul(value) > 0;
  if (!seconds)
    throw cli::UsageError("export: --rotate '" + value +
                          "': expected a number of seconds (1 or more) or 'step'");
  return {"rotate", value};
}

std::string joined(const std::vector<std::string> &names) {
  std::string text;
  for (const auto &n : names)
    text += (text.empty() ? "" : ", ") + n;
  return text.empty() ? "none installed" : text;
}
} // namespace

int run_export(const std::vector<std::string> &args, core::Console &console) {
  po::options_description options("prof export [options] REPORT");
  options.add_options()("type,t", po::value<std::string>()->default_value("perfetto"),
                        "exporter: perfetto, chrome-json, kineto, csv, sqlite, folded, pprof, ...")(
      "output,o", po::value<std::string>(),
      "output file (default: REPORT with the type's extension)")("force-overwrite,f",
                                                                 "replace an existing output file")(
      "plugin-path", po::value<std::vector<std::string>>(), "also load plugins from DIR")(
      "mark", po::value<std::string>(),
      "critical-path: add the critical path of the 3 slowest steps (or of --step) as a track")(
      "step", po::value<std::string>(), "with --mark: the steps to mark, N,N,...")(
      "rotate", po::value<std::string>(),
      "pprof: also one profile per N seconds of the capture, or per training step ('step'), "
      "named OUTPUT-K.pb.gz or OUTPUT-stepK.pb.gz")("help,h", "this help")(
      "report", po::value<std::vector<std::string>>(), "the .profrep");
  po::positional_options_description positional;
  positional.add("report", -1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), values);
  } catch (const po::error &e) {
    throw cli::UsageError(std::string("export: ") + e.what());
  }
  if (values.count("help")) {
    std::ostringstream text;
    text << options;
    std::fputs(text.str().c_str(), stdout);
    return 0;
  }
  if (!values.count("report") || values["report"].as<std::vector<std::string>>().size() != 1)
    throw cli::UsageError("export: give exactly one report to export (see prof export --help)");
  const std::string report = values["report"].as<std::vector<std::string>>().front();
  const std::string type = values["type"].as<std::string>();
  if (values.count("mark") && values["mark"].as<std::string>() != "critical-path")
    throw cli::UsageError("export: --mark '" + values["mark"].as<std::string>() +
                          "' is not critical-path");
  if (values.count("step") && !values.count("mark"))
    throw cli::UsageError("export: --step needs --mark critical-path");
  const std::vector<uint64_t> steps =
      values.count("step") ? cli::step_numbers("export", values["step"].as<std::string>())
                           : std::vector<uint64_t>{};

  std::vector<std::filesystem::path> extra;
  if (values.count("plugin-path"))
    for (const std::string &folder : values["plugin-path"].as<std::vector<std::string>>())
      extra.emplace_back(folder);
  core::PluginRegistry registry;
  registry.scan(core::PluginRegistry::search_path(extra));
  const auto types = file_exporters(registry);
  if (std::find(types.begin(), types.end(), type) == types.end())
    throw cli::UsageError("export: unknown type '" + type + "' (types: " + joined(types) + ")");
  const std::string output =
      values.count("output")
          ? values["output"].as<std::string>()
          : std::filesystem::path(report).replace_extension().string() + extension_for(type);

  std::vector<std::pair<std::string, std::string>> plugin_options{{"path", output}};
  if (type == "csv") plugin_options.emplace_back("mode", "tables"); // for pandas users
  if (values.count("rotate"))
    plugin_options.push_back(rotate_option(type, values["rotate"].as<std::string>()));
  const SelectedPlugin exporter = configure_plugin(*registry.find(type), plugin_options,
                                                   values.count("force-overwrite") > 0, "export");
  ReportAdditions additions;
  if (values.count("mark"))
    additions = [&steps, &console](const report::ReportReader &reader, core::Catalog &catalog) {
      std::vector<prof_event> events =
          critical_path_events(reader, catalog, steps.empty() ? kSlowestStepsMarked : 0, steps);
      if (events.empty())
        console.warning("export: no steps (annotation ranges with a \"step\" argument) in this "
                        "report: no critical path to mark");
      return events;
    };
  const int status = export_saved_report(report, {exporter}, console, additions);
  if (status == 0) std::printf("Generated: %s\n", std::filesystem::absolute(output).c_str());
  return status;
}

} // namespace prof::tool
