#include "tools/prof/reports/import_trace_command.hpp"

#include "core/import/report_import.hpp"
#include "core/plugin_host/output_name.hpp"
#include "core/report/report_error.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/reports/trace_file_names.hpp"
#include "tools/prof/reports/trace_text.hpp"
#include "tools/prof/run_context.hpp"

#include <boost/program_options.hpp>

#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace prof::tool {
namespace {

constexpr std::string_view kReportExtension = ".profrep";

struct ImportRequest {
  std::vector<std::string> traces;
  std::vector<std::string> outputs; ///< one per trace
  std::optional<int64_t> rank;
  bool force = false;
  const core::PluginInfo *importer = nullptr; ///< --importer; else each file's best
};

/// The installed importers, by name ("none" when there are none).
std::string importer_names(const core::PluginRegistry &registry) {
  std::string names;
  for (const core::PluginInfo &plugin : registry.plugins())
    if (plugin.importer != nullptr) names += (names.empty() ? "" : ", ") + plugin.name;
  return names.empty() ? "none installed" : names;
}

/// What a file begins with and where, for the error that no importer
/// takes it: "'<' at offset 0", "byte 0x04 at offset 1".
std::string opening_of(std::string_view text) {
  const size_t at = text.find_first_not_of(" \t\r\n");
  if (at == std::string_view::npos)
    return text.empty() ? "an empty file at offset 0" : "only white space at offset 0";
  const auto c = static_cast<unsigned char>(text[at]);
  const std::string where = " at offset " + std::to_string(at);
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'" + where;
  static const char hex[] = "0123456789abcdef";
  return std::string("byte 0x") + hex[c >> 4] + hex[c & 15] + where;
}

// The reports written so far under temporary names: removed unless every
// trace was imported, then renamed to their names.
class PendingReports {
public:
  ~PendingReports() {
    std::error_code ec;
    for (const auto &[temporary, final_path] : files_)
      fs::remove(temporary, ec);
  }
  std::string add(const std::string &final_path) {
    const fs::path target(final_path);
    const std::string temporary =
        (target.parent_path() / ("." + target.filename().string() + ".import-" +
                                 std::to_string(::getpid()) + "-" + std::to_string(files_.size())))
            .string();
    files_.emplace_back(temporary, final_path);
    return temporary;
  }
  void commit() {
    for (const auto &[temporary, final_path] : files_) {
      std::error_code ec;
      fs::rename(temporary, final_path, ec);
      if (ec)
        throw std::runtime_error("import: cannot write '" + final_path + "': " + ec.message());
    }
    files_.clear();
  }

private:
  std::vector<std::pair<std::string, std::string>> files_;
};

std::vector<std::string> output_paths(const std::vector<std::string> &traces,
                                      const std::optional<std::string> &output) {
  std::vector<std::string> outputs;
  std::error_code ec;
  const bool into_folder =
      output && (traces.size() > 1 || output->ends_with('/') || fs::is_directory(*output, ec));
  if (into_folder && !fs::is_directory(*output, ec)) {
    fs::create_directories(*output, ec);
    if (ec)
      throw cli::UsageError("import: cannot make the folder '" + *output + "': " + ec.message());
  }
  for (const std::string &trace : traces) {
    if (into_folder)
      outputs.push_back((fs::path(*output) / report_name_for_trace(trace)).string());
    else if (output)
      outputs.push_back(
          fs::path(*output).has_extension() ? *output : *output + std::string(kReportExtension));
    else
      outputs.push_back((fs::path(trace).parent_path() / report_name_for_trace(trace)).string());
  }
  std::map<std::string, std::string> seen;
  for (size_t i = 0; i < traces.size(); ++i) {
    const std::string key = fs::absolute(outputs[i]).lexically_normal().string();
    if (const auto [it, added] = seen.emplace(key, traces[i]); !added)
      throw cli::UsageError("import: '" + it->second + "' and '" + traces[i] +
                            "' would both be written to '" + outputs[i] +
                            "' (give -o a folder, or import them apart)");
  }
  return outputs;
}

void import_trace(const ImportRequest &request, size_t index, const std::string &temporary,
                  const core::PluginRegistry &registry, core::Console &console) {
  const std::string &path = request.traces[index];
  std::string text;
  try {
    text = read_trace_text(path);
  } catch (const TraceTextError &e) {
    throw cli::UsageError("import " + path + ": " + e.what());
  } catch (const std::system_error &e) {
    throw cli::UsageError("import " + path + ": " + e.what());
  }
  const core::PluginInfo *importer = request.importer;
  if (importer == nullptr) {
    const auto takers = core::importers_for(registry, path, text);
    if (takers.empty())
      throw cli::UsageError("import " + path + ": expected a trace one of the importers reads (" +
                            importer_names(registry) + "), found " + opening_of(text));
    importer = takers.front();
  }
  const core::ImportJob job{path, text, request.rank, rank_in_file_name(path)};
  core::ImportOutcome outcome;
  try {
    outcome = core::import_file(*importer, job, temporary);
  } catch (const core::ImportRefused &e) {
    throw cli::UsageError("import " + path + ": " + e.what());
  }
  for (const std::string &warning : outcome.warnings)
    console.warning("import " + path + ": " + warning);
  if (outcome.invalid_events > 0)
    console.warning("import " + path + ": " + std::to_string(outcome.invalid_events) +
                    " events named tracks the " + importer->name +
                    " importer never declared; they are left out");
}

} // namespace

int run_trace_import(const std::vector<std::string> &args, core::Console &console) {
  po::options_description options(
      "prof import [-o OUT] [--force-overwrite] [--rank N] [--importer NAME] TRACE...");
  options.add_options()("output,o", po::value<std::string>(),
                        "the report (one TRACE; .profrep added without an extension), or the "
                        "folder of the reports (several); default: beside each TRACE, named "
                        "like it with .profrep for .json or .json.gz")("force-overwrite,f",
                                                                       "replace existing reports")(
      "rank", po::value<int64_t>(),
      "the rank of the process that wrote TRACE (one TRACE), when the trace does not say "
      "(a legacy trace); else its file name's number (r3.json, rank3, trace_3.json)")(
      "importer", po::value<std::string>(),
      "read every TRACE with this importer plugin (default: the one that takes each file, "
      "by its first bytes; prof --plugin-list lists them)")(
      "plugin-path", po::value<std::vector<std::string>>(), "also load plugins from DIR")(
      "help,h", "this help")("trace", po::value<std::vector<std::string>>(),
                             "traces of other profilers (gzip-compressed too), as the "
                             "installed importers read them: PyTorch's (Kineto's JSON, "
                             "the legacy profiler's), Perfetto's protobuf traces");
  po::positional_options_description positional;
  positional.add("trace", -1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), values);
  } catch (const po::error &e) {
    throw cli::UsageError(std::string("import: ") + e.what());
  }
  if (values.count("help")) {
    std::ostringstream text;
    text << options;
    std::fputs(text.str().c_str(), stdout);
    return kExitOk;
  }
  if (!values.count("trace"))
    throw cli::UsageError("import: give the traces to import (see prof import --help)");
  std::vector<std::filesystem::path> extra;
  if (values.count("plugin-path"))
    for (const std::string &folder : values["plugin-path"].as<std::vector<std::string>>()) {
      std::error_code ec;
      if (!fs::is_directory(folder, ec))
        throw cli::UsageError("import: --plugin-path '" + folder + "' is not a folder");
      extra.emplace_back(folder);
    }
  core::PluginRegistry registry;
  registry.scan(core::PluginRegistry::search_path(extra));
  ImportRequest request;
  request.traces = values["trace"].as<std::vector<std::string>>();
  request.force = values.count("force-overwrite") > 0;
  if (values.count("rank")) {
    if (request.traces.size() != 1)
      throw cli::UsageError("import: --rank names the rank of one trace; give one TRACE with it");
    if (values["rank"].as<int64_t>() < 0)
      throw cli::UsageError("import: --rank takes a rank, 0 or more");
    request.rank = values["rank"].as<int64_t>();
  }
  if (values.count("importer")) {
    const std::string name = values["importer"].as<std::string>();
    request.importer = registry.find(name);
    if (request.importer == nullptr || request.importer->importer == nullptr)
      throw cli::UsageError("import: --importer '" + name +
                            "' is no importer (importers: " + importer_names(registry) + ")");
  }
  std::optional<std::string> output;
  if (values.count("output")) output = values["output"].as<std::string>();
  request.outputs = output_paths(request.traces, output);
  for (size_t i = 0; i < request.traces.size(); ++i) {
    std::string problem;
    if (!core::output_path_allowed(request.outputs[i], request.force, &problem))
      throw cli::UsageError("import: " + problem);
  }

  PendingReports pending;
  for (size_t i = 0; i < request.traces.size(); ++i) {
    const std::string temporary = pending.add(request.outputs[i]);
    try {
      import_trace(request, i, temporary, registry, console);
    } catch (const report::ReportError &e) {
      throw std::runtime_error("import " + request.traces[i] + ": " + e.what());
    }
  }
  pending.commit();
  for (const std::string &output_path : request.outputs)
    std::printf("Generated: %s\n", fs::absolute(output_path).c_str());
  return kExitOk;
}

} // namespace prof::tool
