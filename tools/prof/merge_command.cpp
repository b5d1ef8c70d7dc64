#include "tools/prof/merge_command.hpp"

#include "core/report/report_merge.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/import_command.hpp"
#include "tools/prof/progress_bar.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
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
};

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// Name order with runs of digits compared as numbers: r2 before r10, so that
// reports named by rank merge in rank order.
bool natural_less(const std::string &a, const std::string &b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie])))
        ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je])))
        ++je;
      std::string_view x(a.data() + i, ie - i), y(b.data() + j, je - j);
      while (x.size() > 1 && x.front() == '0')
        x.remove_prefix(1);
      while (y.size() > 1 && y.front() == '0')
        y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

bool same_file(const fs::path &a, const fs::path &b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

// The reports `request` names: files as given, folders by their .profrep
// files in name order (a merge written into the folder before is not one).
std::vector<std::string> report_paths(const MergeRequest &request) {
  std::vector<std::string> paths;
  for (const std::string &input : request.inputs) {
    std::error_code ec;
    if (!fs::is_directory(input, ec)) {
      paths.push_back(input);
      continue;
    }
    std::vector<std::string> found;
    for (fs::directory_iterator it(input, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path &path = it->path();
      if (path.extension() != kReportExtension || !it->is_regular_file(ec)) continue;
      if (same_file(path, request.output)) continue;
      found.push_back(path.string());
    }
    if (ec) throw cli::UsageError("merge: cannot read folder '" + input + "': " + ec.message());
    if (found.empty())
      throw cli::UsageError("merge: folder '" + input + "' holds no " +
                            std::string(kReportExtension) + " reports");
    std::sort(found.begin(), found.end(), natural_less);
    paths.insert(paths.end(), found.begin(), found.end());
  }
  if (paths.empty())
    throw cli::UsageError("merge: no reports to merge (give .profrep files or folders of them)");
  return paths;
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
  cli::CommandLine command;
  command.set("import-profile", report);
  command.set("quiet", "true");
  if (request.force) command.set("force-overwrite", "true");
  command.plugins.push_back({"perfetto", false, {{"path", request.output}}, ""});
  return run_import(RunContext{command, registry, console});
}

int merge(const MergeRequest &request, core::Console &console,
          const std::function<const core::PluginRegistry &()> &registry) {
  const std::vector<std::string> paths = report_paths(request);
  std::string problem;
  if (!output_path_allowed(request.output, request.force, &problem))
    throw cli::UsageError("merge: " + problem);
  const bool perfetto = !ends_with(request.output, kReportExtension);
  if (perfetto && !registry().find("perfetto"))
    throw std::runtime_error("merge: writing the Perfetto trace '" + request.output +
                             "' needs the perfetto exporter, which is not installed (an output "
                             "ending in .profrep needs none)");

  report::MergePlan plan;
  try {
    plan = report::plan_merge(paths);
  } catch (const report::MergeInputError &e) {
    throw cli::UsageError(std::string("merge: ") + e.what());
  }
  for (const std::string &warning : plan.warnings)
    console.warning("merge: " + warning);

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

std::string merge_folder_to_temporary(const std::string &folder, core::Console &console) {
  const std::string output = (fs::temp_directory_path() /
                              ("prof-import-" + std::to_string(::getpid()) + ".profrep"))
                                 .string();
  MergeRequest request{{folder}, output, true};
  report::MergePlan plan;
  try {
    plan = report::plan_merge(report_paths(request));
  } catch (const report::MergeInputError &e) {
    throw cli::UsageError(std::string("--import-profile: ") + e.what());
  }
  for (const std::string &warning : plan.warnings)
    console.warning(warning);
  report::write_merge(plan, output, true, {});
  return output;
}

int run_merge(const std::vector<std::string> &args, core::Console &console) {
  po::options_description options("prof merge -o OUTPUT [options] REPORT|FOLDER...");
  options.add_options()("output,o", po::value<std::string>(),
                        "merged report (.profrep; added without an extension), or a Perfetto "
                        "trace for any other extension")("force-overwrite,f",
                                                         "replace an existing output file")(
      "plugin-path", po::value<std::vector<std::string>>(), "also load plugins from DIR")(
      "help,h", "this help")("input", po::value<std::vector<std::string>>(),
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

  std::vector<std::filesystem::path> extra;
  if (values.count("plugin-path"))
    for (const auto &path : values["plugin-path"].as<std::vector<std::string>>())
      extra.emplace_back(path);
  std::optional<core::PluginRegistry> registry;
  return merge(request, console, [&]() -> const core::PluginRegistry & {
    if (!registry) {
      registry.emplace();
      registry->scan(core::PluginRegistry::search_path(extra));
    }
    return *registry;
  });
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
