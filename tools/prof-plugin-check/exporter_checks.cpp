#include "tools/prof-plugin-check/exporter_checks.hpp"

#include "core/plugin_host/console.hpp"
#include "core/plugin_host/exporter_instance.hpp"
#include "core/runtime/session_clock.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace fs = std::filesystem;

namespace prof::plugin_check {
namespace {

constexpr size_t kBatch = 4096;           // events per consume(), as the drain hands them
constexpr size_t kLargeCapture = 100'000; // events in the large capture

/// What the output folder holds besides `output`, or why `output` is missing.
std::string output_problem(const fs::path &folder, const fs::path &output) {
  std::error_code ec;
  if (!fs::exists(output, ec))
    return "it succeeded but wrote nothing at its path " + output.string();
  if (fs::is_directory(output, ec) && fs::is_empty(output, ec))
    return "it succeeded but left the folder " + output.string() + " empty";
  for (const auto &entry : fs::directory_iterator(folder, ec))
    if (entry.path() != output)
      return "it left " + entry.path().filename().string() + " beside its output";
  return {};
}

} // namespace

ExporterChecks::ExporterChecks(const core::PluginInfo &plugin,
                               std::map<std::string, std::string> base, fs::path scratch)
    : plugin_(plugin), base_(std::move(base)), scratch_(std::move(scratch)) {}

std::string ExporterChecks::export_file(const GeneratedCapture &capture, fs::path *output) {
  if (plugin_.option("path") == nullptr) return "the exporter writes no file (no path option)";
  return export_capture(capture, base_, output);
}

std::string ExporterChecks::export_capture(const GeneratedCapture &capture,
                                           std::map<std::string, std::string> values,
                                           fs::path *written) {
  const fs::path folder = scratch_ / ("run-" + std::to_string(++runs_));
  fs::create_directories(folder);
  const fs::path output = folder / "out";
  const bool writes_files = plugin_.option("path") != nullptr;
  if (writes_files) values["path"] = output.string();

  prof_session_info session{};
  const int32_t pid = 4242;
  session.struct_size = sizeof session;
  session.session_name = "plugin-check";
  session.target_pid = pid;
  session.command = "app";
  session.hostname = "localhost";
  session.realtime_anchor_ns = core::realtime_now_ns();
  session.monotonic_anchor_ns = 0;
  session.pids = &pid;
  session.pid_count = 1;
  session.plugins = "";
  session.rank = "";

  // Exporters print summaries and tables: those go nowhere here.
  std::FILE *sink = std::fopen("/dev/null", "w");
  core::Console console(sink ? sink : stdout);
  std::string problem;
  {
    core::ExporterInstance exporter(plugin_, core::OptionValues(plugin_, values), capture.catalog,
                                    console, session);
    if (exporter.open()) {
      for (size_t first = 0; first < capture.events.size() && !exporter.failed(); first += kBatch)
        exporter.consume(capture.events.data() + first,
                         std::min(kBatch, capture.events.size() - first));
      core::CaptureEnd end;
      end.events = capture.events.size();
      exporter.finish(capture.catalog, end);
    }
    problem = exporter.error();
  }
  if (sink) std::fclose(sink);
  if (problem.empty() && writes_files) problem = output_problem(folder, output);
  if (written != nullptr) *written = output;
  return problem;
}

std::string ExporterChecks::try_options(const core::OptionValues &values) {
  GeneratedCapture empty;
  make_empty_capture(empty);
  return export_capture(empty, values.set_values());
}

void ExporterChecks::check(RuleReport &report) {
  struct Run {
    const char *rule;
    void (*make)(GeneratedCapture &);
  };
  const Run runs[] = {
      {"exporter.empty-capture", &make_empty_capture},
      {"exporter.one-of-each", &make_one_of_each_capture},
      {"exporter.large-capture",
       [](GeneratedCapture &capture) { make_large_capture(capture, kLargeCapture); }},
  };
  for (const Run &run : runs) {
    GeneratedCapture capture;
    run.make(capture);
    const auto begin = std::chrono::steady_clock::now();
    const std::string problem = export_capture(capture, base_);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - begin)
                        .count();
    if (problem.empty())
      report.pass(run.rule, std::to_string(capture.events.size()) + " events in " +
                                std::to_string(ms) + " ms");
    else
      report.fail(run.rule, problem);
  }
}

} // namespace prof::plugin_check
