#include "tools/prof/stats/stats_inputs.hpp"

#include "core/report/report_merge.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/reports/report_folder.hpp"
#include <prof/drop_causes.hpp>

#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace prof::tool {
namespace {

cli::UsageError usage(const std::string &command, const std::string &message) {
  return cli::UsageError(command + ": " + message);
}

bool is_folder(const std::string &path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

} // namespace

StatsInputs::StatsInputs(const std::vector<std::string> &inputs, const std::string &output,
                         const StatsJob *job, core::Console *console, const std::string &command)
    : job_(job) {
  const auto warn = [console](const std::string &line) {
    if (console) console->warning(line);
  };
  if (inputs.size() == 1 && !is_folder(inputs.front())) {
    path_ = inputs.front();
    title_ = fs::path(path_).filename().string();
  } else {
    const std::vector<std::string> paths = report_paths(inputs, output, command);
    report::MergePlan plan;
    try {
      plan = report::plan_merge(paths);
    } catch (const report::MergeInputError &e) {
      throw usage(command, e.what());
    }
    for (const std::string &warning : plan.warnings)
      warn(warning);
    if (job_) {
      const auto [first, last] = job_->share(plan.inputs.size());
      for (size_t i = 0; i < plan.inputs.size(); ++i)
        plan.inputs[i].write_events = i >= first && i < last;
    }
    path_ = (fs::temp_directory_path() / ("prof-stats-" + std::to_string(::getpid()) + ".profrep"))
                .string();
    temporary_.path = path_;
    report::write_merge(plan, path_, true);
    title_ = std::to_string(paths.size()) + " reports";
  }
  // The scan decodes every EVENTS chunk anyway: checking them at open too
  // would decode them twice. One that fails is reported after the scan.
  if (!reader_.open(path_, report::ReadOptions{.check_events = false}))
    throw usage(command, reader_.problems().empty() ? "cannot read report '" + path_ + "'"
                                                    : reader_.problems().back());
  // A cut or damaged report: the statistics cover what could be read.
  for (const std::string &problem : reader_.problems())
    warn(problem);
  // Every loss of the capture, by cause.
  for (prof_drop_cause cause : kDropCauses)
    if (const uint64_t lost = reader_.dropped(cause))
      warn("this capture lost events: " + drop_cause_line(cause, lost));
  view_ = std::make_unique<core::ReportExportView>(reader_);
  host_ = view_->host();
}

StatsInputs::Temporary::~Temporary() {
  std::error_code ec;
  if (!path.empty()) fs::remove(path, ec);
}

ScanResult StatsInputs::scan(const stats::StatsScope &scope, ScanOptions options) const {
  if (job_ && temporary_.path.empty()) {
    const auto [first, last] = job_->share(reader_.event_chunks().size());
    options.first_chunk = first;
    options.last_chunk = last;
  }
  return scan_report(reader_, host_, scope, options);
}

void StatsInputs::visit(const std::function<void(const prof_event *, size_t)> &visit) const {
  reader_.for_each_event_batch(visit);
}

} // namespace prof::tool
