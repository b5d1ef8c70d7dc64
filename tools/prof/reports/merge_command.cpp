#include "tools/prof/reports/merge_command.hpp"

#include "core/plugin_host/output_name.hpp"
#include "core/report/report_merge.hpp"
#include "tools/prof/capture/plugin_selection.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/progress_bar.hpp"
#include "tools/prof/reports/rank_selection.hpp"
#include "tools/prof/reports/report_folder.hpp"
#include "tools/prof/reports/saved_report.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace prof::tool {

namespace {

constexpr std::string_view kReportExtension = ".profrep";

struct MergeRequest {
  std::vector<std::string> inputs; ///< reports or folders of reports, as given
  std::string output;              ///< a .profrep, else a Perfetto trace
  bool force = false;
  std::optional<RankSelection> ranks; ///< --ranks: only these ranks' reports
};

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// Removes a file at the end of the scope.
struct ScratchFile {
  std::string path;
  ~ScratchFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

// Replays the merged report at `report` into the perfetto exporter, as
// `prof export --type perfetto` does.
int write_perfetto(const std::string &report, const MergeRequest &request,
                   const core::PluginRegistry &registry, core::Console &console) {
  const SelectedPlugin perfetto = configure_plugin(
      *registry.find("perfetto"), {{"path", request.output}}, request.force, "merge");
  return export_saved_report(report, {perfetto}, console);
}

int merge(const MergeRequest &request, core::Console &console,
          const std::function<const core::PluginRegistry &()> &registry,
          const OutlierRanks &outlier_ranks = {}) {
  std::vector<std::string> paths = report_paths(request.inputs, request.output);
  std::string problem;
  if (!core::output_path_allowed(request.output, request.force, &problem))
    throw cli::UsageError("merge: " + problem);
  const bool perfetto = !ends_with(request.output, kReportExtension);
  if (perfetto && !registry().find("perfetto"))
    throw std::runtime_error("merge: writing the Perfetto trace '" + request.output +
                             "' needs the perfetto exporter, which is not installed (an output "
                             "ending in .profrep needs none)");
  if (request.ranks) {
    std::vector<int> ranks = request.ranks->ranks;
    if (request.ranks->outliers) {
      if (!outlier_ranks)
        throw cli::UsageError("merge: --ranks outliers is not available here; give the ranks");
      ranks = outlier_ranks(paths, console);
    }
    paths = reports_of_ranks(paths, ranks);
  }

  report::MergePlan plan;
  try {
    plan = report::plan_merge(paths);
  } catch (const report::MergeInputError &e) {
    throw cli::UsageError(std::string("merge: ") + e.what());
  }
  for (const std::string &warning : plan.warnings)
    console.warning("merge: " + warning);
  if (!console.quiet())
    for (const std::string &note : plan.notes)
      std::printf("merge: %s\n", note.c_str());

  // A Perfetto trace is written from a merged report that is then removed.
  std::optional<ScratchFile> scratch;
  if (perfetto)
    scratch.emplace(
        ScratchFile{request.output + ".merge-" + std::to_string(::getpid()) + ".report"});
  std::optional<ProgressBar> bar;
  if (paths.size() > 1) bar.emplace(console, "merge reports");
  try {
    report::write_merge(plan, perfetto ? scratch->path : request.output, perfetto || request.force,
                        [&](uint64_t done, uint64_t total) {
                          if (bar) bar->update(total ? double(done) / double(total) : 1.0);
                        });
  } catch (const report::MergeInputError &e) {
    throw cli::UsageError(std::string("merge: ") + e.what());
  }
  if (bar) bar->finish();
  if (perfetto) {
    if (const int status = write_perfetto(scratch->path, request, registry(), console);
        status != kExitOk)
      return status;
  }
  if (!console.quiet()) std::printf("Generated: %s\n", fs::absolute(request.output).c_str());
  return kExitOk;
}

} // namespace

int run_merge(const std::vector<std::string> &args, core::Console &console,
              const OutlierRanks &outlier_ranks) {
  po::options_description options("prof merge -o OUTPUT [options] REPORT|FOLDER...");
  options.add_options()("output,o", po::value<std::string>(),
                        "merged report (.profrep; added without an extension), or a Perfetto "
                        "trace for any other extension")("force-overwrite,f",
                                                         "replace an existing output file")(
      "plugin-path", po::value<std::vector<std::string>>(), "also load plugins from DIR")(
      "ranks", po::value<std::string>(),
      "merge only these ranks' reports: a list (3,17,56-63), or \"outliers\": the ranks `prof "
      "stats --report outliers` names and the typical rank")("help,h", "this help")(
      "input", po::value<std::vector<std::string>>(),
      "reports, or folders whose .profrep files are merged");
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), values);
  } catch (const po::error &e) {
    throw cli::UsageError(std::string("merge: ") + e.what());
  }
  if (values.count("help")) {
    std::ostringstream text;
    text << options;
    std::fputs(text.str().c_str(), stdout);
    return kExitOk;
  }
  if (!values.count("output"))
    throw cli::UsageError("merge: give the output with -o FILE (see prof merge --help)");
  if (!values.count("input"))
    throw cli::UsageError("merge: give the reports to merge: .profrep files or folders of them "
                          "(see prof merge --help)");
  MergeRequest request;
  request.inputs = values["input"].as<std::vector<std::string>>();
  request.output = values["output"].as<std::string>();
  if (!fs::path(request.output).has_extension()) request.output += kReportExtension;
  request.force = values.count("force-overwrite") > 0;
  if (values.count("ranks"))
    request.ranks = parse_rank_selection(values["ranks"].as<std::string>());

  std::vector<std::filesystem::path> extra;
  if (values.count("plugin-path"))
    for (const auto &path : values["plugin-path"].as<std::vector<std::string>>())
      extra.emplace_back(path);
  std::optional<core::PluginRegistry> registry;
  return merge(
      request, console,
      [&]() -> const core::PluginRegistry & {
        if (!registry) {
          registry.emplace();
          registry->scan(core::PluginRegistry::search_path(extra));
        }
        return *registry;
      },
      outlier_ranks);
}

int run_visual_profiler_merge(const RunContext &context) {
  MergeRequest request;
  request.inputs = {context.command.value_or("visual-profiler-merge-from", "")};
  request.output = context.command.value_or("visual-profiler-merge-to", "");
  request.force = context.command.has("force-overwrite");
  return merge(request, context.console,
               [&]() -> const core::PluginRegistry & { return context.registry; });
}

} // namespace prof::tool
