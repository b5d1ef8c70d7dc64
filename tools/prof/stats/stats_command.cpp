#include "tools/prof/stats/stats_command.hpp"

#include "core/plugin_host/output_name.hpp"
#include "core/plugin_host/report_export_view.hpp"
#include "tools/prof/cli/step_numbers.hpp"
#include "tools/prof/cli/subcommand_options.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/progress_bar.hpp"
#include "tools/prof/reports/report_folder.hpp"
#include "tools/prof/run_context.hpp"
#include "tools/prof/stats/stats_inputs.hpp"
#include "tools/prof/stats/stats_job.hpp"
#include "tools/prof/stats/stats_mpirun.hpp"
#include "tools/prof/stats/stats_scan.hpp"
#include "tools/prof/stats/summary_combine.hpp"
#include "tools/prof/stats/summary_store.hpp"
#include <prof/drop_causes.hpp>
#include <prof/stats/aggregator_wire.hpp>
#include <prof/stats/findings.hpp>
#include <prof/stats/html_page.hpp>
#include <prof/stats/rank_outliers.hpp>
#include <prof/stats/stats_reports.hpp>
#include <prof/stats/step_slices.hpp>

#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
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

/// Steps walked for their critical paths when --step names none.
constexpr size_t kSlowestStepsWalked = 3;

/// The critical paths of the slowest steps and those of `wanted`: a second
/// pass over the report keeps those steps' slices alone. Where this process
/// holds a share of the events only, none (or, when `required`, a usage
/// error).
std::vector<stats::CriticalPath> walk_critical_paths(const StatsInputs &in,
                                                     const stats::StatsAggregator &aggregator,
                                                     const std::vector<uint64_t> &wanted,
                                                     bool required) {
  std::set<uint64_t> known;
  for (const auto &[key, span] : aggregator.steps())
    known.insert(key.step);
  for (const uint64_t step : wanted)
    if (!known.contains(step))
      throw usage("--step " + std::to_string(step) + ": no step of that number in " + in.title());
  if (known.empty()) return {};
  if (!in.holds_every_event()) {
    if (!required) return {}; // the steps report goes without its notes
    throw usage("critical paths need every report in one process: run this prof stats without "
                "an MPI launcher");
  }
  stats::StepSliceCollector collector(
      in.host(),
      stats::choose_step_windows(aggregator, wanted.empty() ? kSlowestStepsWalked : 0, wanted));
  in.visit([&collector](const prof_event *events, size_t count) { collector.add(events, count); });
  collector.finish();
  return stats::find_critical_paths(collector);
}

/// "NAME=VALUE" of --finding-threshold: a threshold findings know and a
/// number, not negative.
void parse_finding_threshold(const std::string &text, std::map<std::string, double> &into) {
  const auto equals = text.find('=');
  const std::string name = text.substr(0, equals);
  if (equals == std::string::npos || !stats::find_finding_threshold(name)) {
    std::string known;
    for (const auto &threshold : stats::finding_thresholds())
      known += (known.empty() ? "" : ", ") + std::string(threshold.name);
    throw usage("--finding-threshold '" + text + "' is not NAME=VALUE with a NAME of " + known);
  }
  const std::string number = text.substr(equals + 1);
  char *end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(value) || value < 0)
    throw usage("--finding-threshold '" + text + "': '" + number + "' is not a number, 0 or more");
  into[name] = value;
}

/// Reports from which `--summaries auto` works from per-rank summaries: the
/// merge path holds every rank's events on one timeline (at 256 ranks of
/// run_bench_ranks.sh, 3.1 GB); below this many, it costs little and every
/// report runs.
constexpr size_t kSummaryRanks = 32;

/// The reports `inputs` name when they are several (files, or folders of
/// them); empty for one report file.
std::vector<std::string> several_reports(const std::vector<std::string> &inputs,
                                         const std::string &output) {
  std::error_code ec;
  if (inputs.size() == 1 && !std::filesystem::is_directory(inputs.front(), ec)) return {};
  return report_paths(inputs, output, "stats");
}

/// What a rank sends rank 0: its aggregator, or why it has none.
enum class Answer : uint8_t { Results = 0, UsageError = 1, Failure = 2 };

int exit_code_of(const std::exception_ptr &failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const core::InputError &) {
    return kExitUsage;
  } catch (...) {
    return kExitFailure;
  }
}

std::vector<uint8_t> answer_of(ScanResult *result, const std::exception_ptr &failure) {
  std::vector<uint8_t> bytes;
  if (!failure) {
    if (result) bytes = stats::AggregatorWire::save(result->aggregator);
    bytes.insert(bytes.begin(), static_cast<uint8_t>(Answer::Results));
    return bytes;
  }
  std::string message;
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception &e) {
    message = e.what();
  } catch (...) {
    message = "stats: unknown failure";
  }
  bytes.push_back(static_cast<uint8_t>(exit_code_of(failure) == kExitUsage ? Answer::UsageError
                                                                           : Answer::Failure));
  bytes.insert(bytes.end(), message.begin(), message.end());
  return bytes;
}

/// Every rank's answer into rank 0's aggregator (when `result` is given), in
/// rank order; `failure` becomes the first failure of any rank.
void gather_results(StatsJob &job, ScanResult *result, std::exception_ptr &failure) {
  const std::vector<uint8_t> mine = answer_of(result, failure);
  job.gather(mine, [&](int rank, std::span<const uint8_t> answer) {
    if (rank == 0 || failure) return;
    const std::string prefix = "stats: rank " + std::to_string(rank) + ": ";
    if (answer.empty() || answer[0] > static_cast<uint8_t>(Answer::Failure)) {
      failure = std::make_exception_ptr(std::runtime_error(prefix + "sent no results"));
      return;
    }
    const auto body = answer.subspan(1);
    const std::string text(body.begin(), body.end());
    if (answer[0] == static_cast<uint8_t>(Answer::UsageError))
      failure = std::make_exception_ptr(cli::UsageError(text));
    else if (answer[0] == static_cast<uint8_t>(Answer::Failure))
      failure = std::make_exception_ptr(std::runtime_error(text));
    else if (result && !stats::AggregatorWire::load(body, result->aggregator))
      failure = std::make_exception_ptr(std::runtime_error(prefix + "sent malformed results"));
  });
}

/// Where and how the tables go.
struct Rendering {
  std::string format, output, title;
};

/// Reports `scanned` from `aggregator` (those without rows left out unless
/// `chosen`), rendered and written; `notes_for` gives lines to add to a
/// report's notes. Returns the exit code.
int write_report(
    const std::vector<std::string> &scanned, bool chosen, stats::StatsAggregator &aggregator,
    const ExportHost &host, const stats::ReportOptions &report_options, const Rendering &rendering,
    const std::function<std::vector<std::string>(const std::string &)> &notes_for = {}) {
  const std::string &format = rendering.format, &output = rendering.output;
  std::vector<stats::StatsTable> tables;
  for (const std::string &name : scanned) {
    stats::StatsTable table = stats::build_report(name, aggregator, host, report_options);
    if (notes_for && table.row_count() > 0)
      for (std::string &note : notes_for(name))
        table.notes.push_back(std::move(note));
    if (chosen || table.row_count() > 0) tables.push_back(std::move(table));
  }
  std::string text =
      format == "csv"    ? stats::render_csv(tables)
      : format == "json" ? stats::render_json(tables)
      : format == "html"
          ? stats::render_html(tables, stats::rank_charts(aggregator, host), rendering.title)
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

/// The reports `names` (or the default ones) from the per-rank summaries of
/// `reports`, made first where missing (each process of `job` its share's;
/// rank 0 combines them all): docs/scale.md.
int stats_from_summaries(const std::vector<std::string> &reports,
                         const std::vector<std::string> &names, bool chosen, StatsJob *job,
                         core::Console &console, const stats::ReportOptions &report_options,
                         const Rendering &rendering) {
  const bool prints = !job || job->prints();
  for (const std::string &name : names)
    if (!runs_from_summaries(name))
      throw usage("report '" + name +
                  "' needs every event and does not run from per-rank summaries: use "
                  "--summaries never, or fewer than " +
                  std::to_string(kSummaryRanks) + " reports");
  std::vector<std::string> shown = names, left_out;
  if (!chosen)
    for (const auto &info : stats::known_reports())
      if (info.by_default)
        (runs_from_summaries(info.name) ? shown : left_out).emplace_back(info.name);
  if (prints && !left_out.empty()) {
    std::string list;
    for (const std::string &name : left_out)
      list += (list.empty() ? "" : ", ") + name;
    console.warning("from per-rank summaries; left out, as they need every event (--report NAME or "
                    "--summaries never reads them): " +
                    list);
  }
  std::exception_ptr failure;
  std::vector<RankSummary> made; // every rank's when this process is alone
  try {
    const auto [first, last] =
        job ? job->share(reports.size()) : std::pair<size_t, size_t>{0, reports.size()};
    made = make_summaries(reports, first, last, prints ? &console : nullptr);
  } catch (...) {
    if (!job) throw;
    failure = std::current_exception();
  }
  if (job) {
    gather_results(*job, nullptr, failure);
    if (!prints) return kExitOk;
    if (failure) std::rethrow_exception(failure);
  }
  if (job) made.clear(); // rank 0 reads the others' from their files
  CombinedSummaries combined(reports, &console, std::move(made));
  return write_report(shown, chosen, combined.aggregator(), combined.host(), report_options,
                      rendering,
                      [&combined](const std::string &name) { return combined.notes_for(name); });
}

int stats_here(const std::vector<std::string> &args, core::Console &console);

} // namespace

int run_stats(const std::vector<std::string> &args, core::Console &console) {
  try {
    return stats_here(args, console);
  } catch (...) {
    // Under an MPI launcher every process meets the same bad option: rank 0
    // says so and gives the job its exit status. The others exit 0, since
    // mpirun ends the whole job when one exits otherwise, maybe before rank
    // 0 has said anything.
    if (StatsJob::launcher_rank() > 0) return kExitOk;
    throw;
  }
}

namespace {

int stats_here(const std::vector<std::string> &args, core::Console &console) {
  po::options_description options("prof stats [options] REPORT|FOLDER...");
  auto add = options.add_options();
  add("report,r", po::value<std::string>(),
      "reports to compute, NAME,NAME,... (default: those of the summary that have data; see "
      "--help-reports)");
  add("format", po::value<std::string>()->default_value("table"),
      "table, csv, json or html (one page: the outlier ranks and nodes, charts of the ranks' "
      "collectives and steps, at any number of ranks)");
  add("output,o", po::value<std::string>(), "write to FILE instead of standard output");
  add("force-overwrite,f", "replace an existing output file");
  add("interval", po::value<std::string>()->default_value("100"),
      "device-utilization: window length in ms");
  add("gap-threshold", po::value<std::string>()->default_value("1000"),
      "device-gaps: report idle gaps longer than this many us");
  add("group-by", po::value<std::string>()->default_value("name"),
      "torch-ops: a row per operator name (name) or per name and input shapes (shapes)");
  add("step", po::value<std::string>(),
      "critical-path: walk these steps, N,N,... (default: the 3 slowest)");
  add("finding-threshold", po::value<std::vector<std::string>>()->composing(),
      "findings: NAME=VALUE instead of a threshold's default, repeatable (see docs/findings.md)");
  const std::string summaries_help =
      "auto, always or never: work from per-rank summaries (REPORT.summary, made once and "
      "reused) instead of merging the reports; auto does from " +
      std::to_string(kSummaryRanks) +
      " reports on, unless a report asked for needs every event (see docs/scale.md); always "
      "refuses those";
  add("summaries", po::value<std::string>()->default_value("auto"), summaries_help.c_str());
  add("mpi", po::value<std::string>(),
      "N: run this prof stats as N processes under mpirun, each making the summaries (or "
      "scanning the reports) of its share");
  add("help-reports", "list the reports");
  add("help,h", "this help");
  const auto parsed = cli::parse_subcommand(args, options, "stats");
  if (!parsed) return kExitOk;
  const po::variables_map &values = *parsed;
  if (values.count("help-reports")) {
    std::fputs(stats::help_reports_text().c_str(), stdout);
    return kExitOk;
  }
  const std::vector<std::string> inputs = cli::subcommand_inputs(values);
  if (inputs.empty())
    throw usage("give a report, several, or folders of them (see prof stats --help)");
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
  const std::string group_by = values["group-by"].as<std::string>();
  if (group_by != "name" && group_by != "shapes")
    throw usage("--group-by '" + group_by + "' is not name or shapes");
  report_options.group_by =
      group_by == "shapes" ? stats::OperatorGrouping::Shapes : stats::OperatorGrouping::Name;
  const std::vector<uint64_t> wanted_steps =
      values.count("step") ? cli::step_numbers("stats", values["step"].as<std::string>())
                           : std::vector<uint64_t>{};
  if (values.count("finding-threshold"))
    for (const std::string &text : values["finding-threshold"].as<std::vector<std::string>>())
      parse_finding_threshold(text, report_options.finding_thresholds);
  const std::string output = values.count("output") ? values["output"].as<std::string>() : "";
  if (!output.empty()) {
    std::string problem;
    if (!core::output_path_allowed(output, values.count("force-overwrite") > 0, &problem))
      throw usage(problem);
  }

  const std::string summaries = values["summaries"].as<std::string>();
  if (summaries != "auto" && summaries != "always" && summaries != "never")
    throw usage("--summaries '" + summaries + "' is not auto, always or never");
  if (values.count("mpi")) return run_under_mpirun(values["mpi"].as<std::string>(), args);

  std::unique_ptr<StatsJob> job = StatsJob::join(console);
  if (job && !job->works()) return kExitOk;
  const bool prints = !job || job->prints();

  const std::vector<std::string> several = several_reports(inputs, output);
  // auto reads every event where a report asked for needs them.
  const bool every_event_asked = std::any_of(
      names.begin(), names.end(), [](const std::string &n) { return !runs_from_summaries(n); });
  if (summaries == "always" ||
      (summaries == "auto" && several.size() >= kSummaryRanks && !every_event_asked)) {
    if (several.empty())
      throw usage("--summaries always needs several reports (files or folders of them)");
    return stats_from_summaries(
        several, names, chosen, job.get(), console, report_options,
        {format, output, "prof stats: " + std::to_string(several.size()) + " reports"});
  }

  std::vector<std::string> scanned = names;
  if (!chosen)
    for (const auto &info : stats::known_reports())
      if (info.by_default) scanned.emplace_back(info.name);
  stats::StatsScope scope = stats::scope_for(scanned, report_options);
  if (format == "html") { // its charts: the ranks' collectives, communication, steps, outliers
    scope.collectives = scope.communication = scope.steps = true;
    stats::rank_outliers_scope(scope);
  }

  std::optional<StatsInputs> in;
  std::optional<ScanResult> result;
  std::exception_ptr failure; // in a job: kept until every rank has answered
  try {
    in.emplace(inputs, output, job.get(), prints ? &console : nullptr);
    ScanOptions scan;
    std::optional<ProgressBar> bar;
    if (!output.empty() && prints) {
      bar.emplace(console, "process profile data");
      scan.progress = [&bar](uint64_t done, uint64_t total) {
        bar->update(total ? static_cast<double>(done) / static_cast<double>(total) : 1.0);
      };
    }
    result.emplace(in->scan(scope, scan));
    if (bar) bar->finish();
    if (prints)
      for (const uint64_t offset : result->malformed_chunks)
        console.warning(malformed_chunk_warning(in->path(), offset));
  } catch (...) {
    if (!job) throw;
    failure = std::current_exception();
  }
  if (job) {
    gather_results(*job, result ? &*result : nullptr, failure);
    if (!prints) return kExitOk; // rank 0 reports every rank's failure (see run_stats)
    if (failure) std::rethrow_exception(failure);
  }
  const ExportHost &host = in->host();
  stats::StatsAggregator &aggregator = result->aggregator;
  if (std::find(scanned.begin(), scanned.end(), "device-utilization") != scanned.end() &&
      aggregator.last_ts() > aggregator.first_ts() &&
      (aggregator.last_ts() - aggregator.first_ts()) / report_options.interval_ns >= kMaxWindows)
    throw usage("--interval " + values["interval"].as<std::string>() +
                " cuts this report into more than " + std::to_string(kMaxWindows) +
                " windows per device: give a longer one");

  std::vector<stats::CriticalPath> paths;
  if (stats::needs_critical_paths(scanned)) {
    paths = walk_critical_paths(*in, aggregator, wanted_steps,
                                std::find(scanned.begin(), scanned.end(), "critical-path") !=
                                    scanned.end());
    report_options.critical_paths = &paths;
    if (!in->holds_every_event())
      console.warning("the steps report names no step's critical path here: each process of "
                      "this MPI job holds a share of the reports' events; run prof stats "
                      "without the launcher for those lines");
  }

  return write_report(scanned, chosen, aggregator, host, report_options,
                      {format, output, "prof stats: " + in->title()});
}

} // namespace

} // namespace prof::tool
