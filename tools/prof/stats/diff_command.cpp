#include "tools/prof/stats/diff_command.hpp"

#include "core/plugin_host/output_name.hpp"
#include "core/report/chunk.hpp"
#include "tools/prof/cli/subcommand_options.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/run_context.hpp"
#include "tools/prof/stats/stats_inputs.hpp"
#include <prof/stats/html_page.hpp>
#include <prof/stats/run_diff_table.hpp>
#include <prof/stats/run_profile.hpp>

#include <boost/program_options.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace po = boost::program_options;

namespace prof::tool {
namespace {

cli::UsageError usage(const std::string &message) { return cli::UsageError("diff: " + message); }

/// A number of at least `least` given to --`option`.
double parse_number(const std::string &option, const std::string &text, double least) {
  char *end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value) || value < least)
    throw usage("--" + option + " '" + text + "' is not a number of at least " +
                (least == 0 ? "0" : std::to_string(least)));
  return value;
}

/// One run's items: its report, or its folder of rank reports merged.
stats::RunProfile read_run(const std::string &input, core::Console &console) {
  const StatsInputs in({input}, "", nullptr, &console, "diff");
  stats::RunProfileBuilder builder(in.host());
  std::vector<prof_event> batch;
  for (const auto &chunk : in.reader().event_chunks()) {
    if (!in.reader().decode_events(chunk, batch)) {
      console.warning(
          malformed_chunk_warning(in.path(), chunk.payload_offset - report::kChunkHeaderSize));
      continue;
    }
    builder.add(batch.data(), batch.size());
  }
  return builder.finish();
}

} // namespace

int run_diff(const std::vector<std::string> &args, core::Console &console) {
  po::options_description options("prof diff [options] BASE NEW (each a report or a folder of "
                                  "rank reports; see docs/diff.md)");
  auto add = options.add_options();
  add("format", po::value<std::string>()->default_value("table"), "table, csv, json or html");
  add("output,o", po::value<std::string>(), "write to FILE instead of standard output");
  add("force-overwrite,f", "replace an existing output file");
  add("fail-on-regression", po::value<std::string>(),
      "exit 1 when an item is slower by at least PCT percent");
  add("threshold", po::value<std::string>()->default_value("5"),
      "smallest change in percent of BASE's median called slower or faster");
  add("noise-factor", po::value<std::string>()->default_value("3"),
      "a change must pass this many times the pooled median absolute deviation");
  add("min-change", po::value<std::string>()->default_value("1"),
      "smallest change of the median per sample called slower or faster, in us");
  add("help,h", "this help");
  const auto parsed = cli::parse_subcommand(args, options, "diff");
  if (!parsed) return kExitOk;
  const po::variables_map &values = *parsed;
  const std::vector<std::string> inputs = cli::subcommand_inputs(values);
  if (inputs.size() != 2)
    throw usage("give two runs, BASE and NEW, each a report or a folder of reports (see prof "
                "diff --help)");
  const std::string format = values["format"].as<std::string>();
  if (format != "table" && format != "csv" && format != "json" && format != "html")
    throw usage("unknown format '" + format + "' (formats: table, csv, json, html)");
  stats::DiffOptions diff_options;
  diff_options.threshold =
      parse_number("threshold", values["threshold"].as<std::string>(), 0) / 100;
  diff_options.noise_factor =
      parse_number("noise-factor", values["noise-factor"].as<std::string>(), 0);
  diff_options.min_change_ns = static_cast<uint64_t>(
      std::llround(parse_number("min-change", values["min-change"].as<std::string>(), 0) * 1e3));
  const bool gate = values.count("fail-on-regression") > 0;
  const double fail_percent =
      gate ? parse_number("fail-on-regression", values["fail-on-regression"].as<std::string>(), 0)
           : 0;
  const std::string output = values.count("output") ? values["output"].as<std::string>() : "";
  if (!output.empty()) {
    std::string problem;
    if (!core::output_path_allowed(output, values.count("force-overwrite") > 0, &problem))
      throw usage(problem);
  }

  const stats::RunProfile base = read_run(inputs[0], console);
  const stats::RunProfile next = read_run(inputs[1], console);
  const stats::RunDiff diff = stats::compare_runs(base, next, diff_options);
  if (diff.matched == 0)
    throw usage("'" + inputs[0] + "' and '" + inputs[1] +
                "' have no operator, device work, collective, function, range or step in common");

  const auto name = [](const std::string &path) {
    const std::filesystem::path p(path);
    return p.has_filename() ? p.filename().string() : p.parent_path().filename().string();
  };
  const std::vector<stats::StatsTable> tables = {
      stats::diff_table(diff, diff_options, name(inputs[0]), name(inputs[1]))};
  const std::string text =
      format == "csv"    ? stats::render_csv(tables)
      : format == "json" ? stats::render_json(tables)
      : format == "html"
          ? stats::render_html(tables, {},
                               "prof diff: " + name(inputs[1]) + " against " + name(inputs[0]))
          : stats::render_table(tables);
  if (output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  } else {
    std::ofstream out(output, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      print_error("diff: cannot write '" + output + "'");
      return kExitFailure;
    }
  }
  if (!gate) return kExitOk;
  const auto slower = stats::regressions(diff, fail_percent);
  if (slower.empty()) return kExitOk;
  std::string rows;
  for (const stats::DiffRow *row : slower)
    rows += (rows.empty() ? "" : ", ") + row->key.kind + " " + row->key.name;
  print_error("diff: regression of at least " + values["fail-on-regression"].as<std::string>() +
              "%: " + rows);
  return kExitFailure;
}

} // namespace prof::tool
