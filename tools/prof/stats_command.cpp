#include "tools/prof/stats_command.hpp"

#include "core/output_name.hpp"
#include "core/report_export_view.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/progress_bar.hpp"
#include "tools/prof/run_context.hpp"
#include "tools/prof/stats_scan.hpp"
#include <prof/drop_causes.hpp>
#include <prof/stats/html_page.hpp>
#include <prof/stats/stats_reports.hpp>

#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace po = boost::program_options;

namespace prof::tool {
namespace {

/// device-utilization rows per device beyond which --interval is refused.
constexpr uint64_t kMaxWindows = 10'000'000;

cli::UsageError usage(const std::string &message) { return cli::UsageError("stats: " + message); }

std::string known_names() {
  std::string text;
  for (const auto &info : stats::known_reports())
    text += (text.empty() ? "" : ", ") + std::string(info.name);
  return text;
}

/// "a,b , c" → {"a", "b", "c"}: known names, each once, in the order given.
std::vector<std::string> parse_report_names(const std::string &list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    const auto first = name.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    name = name.substr(first, name.find_last_not_of(' ') - first + 1);
    if (!stats::find_report(name))
      throw usage("unknown report '" + name + "' (reports: " + known_names() + ")");
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (names.empty()) throw usage("--report names no report (reports: " + known_names() + ")");
  return names;
}

/// A positive number of `unit`s as ns.
uint64_t parse_duration(const std::string &option, const std::string &text, double unit_ns,
                        bool zero_allowed) {
  char *end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value) || value < 0 ||
      (value == 0 && !zero_allowed) || value * unit_ns > 1e18)
    throw usage("--" + option + " '" + text + "' is not a " + (zero_allowed ? "" : "positive ") +
                "number");
  const auto ns = static_cast<uint64_t>(std::llround(value * unit_ns));
  if (ns == 0 && !zero_allowed) throw usage("--" + option + " '" + text + "' is under 1 ns");
  return ns;
}

} // namespace

int run_stats(const std::vector<std::string> &args, core::Console &console) {
  po::options_description options("prof stats [options] REPORT");
  auto add = options.add_options();
  add("report,r", po::value<std::string>(),
      "reports to compute, NAME,NAME,... (default: those of the summary that have data; see "
      "--help-reports)");
  add("format", po::value<std::string>()->default_value("table"),
      "table, csv, json or html (one page with charts of the ranks' collectives)");
  add("output,o", po::value<std::string>(), "write to FILE instead of standard output");
  add("force-overwrite,f", "replace an existing output file");
  add("interval", po::value<std::string>()->default_value("100"),
      "device-utilization: window length in ms");
  add("gap-threshold", po::value<std::string>()->default_value("1000"),
      "device-gaps: report idle gaps longer than this many us");
  add("help-reports", "list the reports");
  add("help,h", "this help");
  po::options_description all; // and the report, which --help leaves to the usage line
  all.add(options).add_options()("input", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), values);
  } catch (const po::error &e) {
    throw usage(e.what());
  }
  if (values.count("help")) {
    std::ostringstream text;
    text << options;
    std::fputs(text.str().c_str(), stdout);
    return kExitOk;
  }
  if (values.count("help-reports")) {
    std::fputs(stats::help_reports_text().c_str(), stdout);
    return kExitOk;
  }
  if (!values.count("input") || values["input"].as<std::vector<std::string>>().size() != 1)
    throw usage("give exactly one report (see prof stats --help)");
  const std::string path = values["input"].as<std::vector<std::string>>().front();
  const std::string format = values["format"].as<std::string>();
  if (format != "table" && format != "csv" && format != "json" && format != "html")
    throw usage("unknown format '" + format + "' (formats: table, csv, json, html)");
  const bool chosen = values.count("report") > 0;
  const std::vector<std::string> names =
      chosen ? parse_report_names(values["report"].as<std::string>()) : std::vector<std::string>{};
  stats::ReportOptions report_options;
  report_options.interval_ns =
      parse_duration("interval", values["interval"].as<std::string>(), 1e6, false);
  report_options.gap_threshold_ns =
      parse_duration("gap-threshold", values["gap-threshold"].as<std::string>(), 1e3, true);
  const std::string output = values.count("output") ? values["output"].as<std::string>() : "";
  if (!output.empty()) {
    std::string problem;
    if (!core::output_path_allowed(output, values.count("force-overwrite") > 0, &problem))
      throw usage(problem);
  }

  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw usage("'" + path + "' is a folder: expected a .profrep file");
  report::ReportReader reader;
  // The scan decodes every EVENTS chunk anyway: checking them at open too
  // would decode them twice. One that fails is reported after the scan.
  if (!reader.open(path, report::ReadOptions{.check_events = false}))
    throw usage(reader.problems().empty() ? "cannot read report '" + path + "'"
                                          : reader.problems().back());
  // A cut or damaged report: the statistics cover what could be read.
  for (const std::string &problem : reader.problems())
    console.warning(problem);
  // Every loss of the capture, by cause.
  for (prof_drop_cause cause : kDropCauses)
    if (const uint64_t lost = reader.dropped(cause))
      console.warning("this capture lost events: " + drop_cause_line(cause, lost));

  std::vector<std::string> scanned = names;
  if (!chosen)
    for (const auto &info : stats::known_reports())
      if (info.by_default) scanned.emplace_back(info.name);
  const core::ReportExportView report_host(reader);
  const ExportHost host = report_host.host();
  ScanOptions scan;
  std::optional<ProgressBar> bar;
  if (!output.empty()) {
    bar.emplace(console, "process profile data");
    scan.progress = [&bar](uint64_t done, uint64_t total) {
      bar->update(total ? static_cast<double>(done) / static_cast<double>(total) : 1.0);
    };
  }
  stats::StatsScope scope = stats::scope_for(scanned, report_options);
  if (format == "html") // its charts: the ranks' collectives and communication
    scope.collectives = scope.communication = true;
  ScanResult result = scan_report(reader, host, scope, scan);
  if (bar) bar->finish();
  for (const uint64_t offset : result.malformed_chunks)
    console.warning(malformed_chunk_warning(path, offset));
  stats::StatsAggregator &aggregator = result.aggregator;
  if (std::find(scanned.begin(), scanned.end(), "device-utilization") != scanned.end() &&
      aggregator.last_ts() > aggregator.first_ts() &&
      (aggregator.last_ts() - aggregator.first_ts()) / report_options.interval_ns >= kMaxWindows)
    throw usage("--interval " + values["interval"].as<std::string>() +
                " cuts this report into more than " + std::to_string(kMaxWindows) +
                " windows per device: give a longer one");

  std::vector<stats::StatsTable> tables;
  for (const std::string &name : scanned) {
    stats::StatsTable table = stats::build_report(name, aggregator, host, report_options);
    if (chosen || table.row_count() > 0) tables.push_back(std::move(table));
  }
  std::string text =
      format == "csv"    ? stats::render_csv(tables)
      : format == "json" ? stats::render_json(tables)
      : format == "html"
          ? stats::render_html(tables, stats::rank_charts(aggregator, host),
                               "prof stats: " + std::filesystem::path(path).filename().string())
          : stats::render_table(tables);
  if (tables.empty() && format == "table")
    text = "======== Profiling result: no activities, counters or samples in this report\n";

  if (output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return kExitOk;
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) {
    print_error("stats: cannot write '" + output + "'");
    return kExitFailure;
  }
  return kExitOk;
}

} // namespace prof::tool
