#include "tools/prof/capture/capture_front_end.hpp"

#include "core/report/report_split.hpp"

#include "core/events/shm_event_source.hpp"
#include "core/plugin_host/input_error.hpp"
#include "core/plugin_host/output_name.hpp"
#include "core/runtime/session_clock.hpp"
#include "tools/prof/cli/usage_error.hpp"
#include "tools/prof/progress_bar.hpp"
#include "tools/prof/sessions/prompt.hpp"

#include <prof/launcher_rank.hpp>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>

namespace prof::tool {
namespace {

namespace fs = std::filesystem;

// The report file the command line asks for (--export-profile FILE, or
// -o/--output NAME with ".profrep" added when NAME has no extension);
// `prof profile` and `prof attach` without one write "report%i.profrep" as
// nsys and asys do, and under a launcher "report%i.rank%q{VAR}.profrep" (the
// ranks of one run share the index); --export-visual-profiler DIR puts it beside the trace
// (DIR/prof-%p.profrep); "" when none (topsprof's flat form prints only).
std::string report_output_path(const cli::CommandLine &command) {
  if (const std::string *path = command.value("export-profile")) return *path;
  // topsprof's raw data is, in prof, the native report.
  if (const std::string *path = command.value("export-rawdata")) return *path;
  if (const std::string *name = command.value("output"))
    return fs::path(*name).has_extension() ? *name : *name + ".profrep";
  // topsprof's visual-profiler folder also holds the native report, which
  // is what --visual-profiler-merge-from merges.
  if (const std::string *trace = command.value("export-visual-profiler")) {
    std::error_code ec;
    if (trace->back() == '/' || fs::is_directory(*trace, ec))
      return (fs::path(*trace) / "prof-%p.profrep").string();
    std::string beside = fs::path(*trace).replace_extension(".profrep").string();
    return beside == *trace ? beside + ".profrep" : beside;
  }
  if (command.subcommand_given &&
      (command.subcommand == "profile" || command.subcommand == "attach")) {
    if (const char *variable = launcher_rank_variable())
      return std::string("report%i.rank%q{") + variable + "}.profrep";
    return "report%i.profrep";
  }
  return "";
}

// Creates the folder --export-visual-profiler DIR/ names (trailing '/'), as
// topsprof does, once the capture starts: the report goes there too.
void create_visual_profiler_folder(const cli::CommandLine &command) {
  const std::string *trace = command.value("export-visual-profiler");
  if (!trace || trace->back() != '/') return;
  std::error_code ec; // a folder that cannot be made is reported when the report opens
  fs::create_directories(*trace, ec);
}

// The header every report of the capture starts with; it names the sources
// that run here, those in the application, and the exporters.
report::Header report_header(const CaptureTarget &target, const PluginSelection &selection,
                             const std::vector<SelectedPlugin> &process_sources,
                             const prof_session_info &info) {
  report::Header header;
  header.session_name = target.session;
  header.argv = target.argv;
  header.command_display = target.display;
  header.pids.assign(target.pids.begin(), target.pids.end());
  header.host_name = info.hostname;
  for (const auto *group : {&selection.sources, &process_sources, &selection.exporters})
    for (const SelectedPlugin &p : *group) {
      report::PluginRecord record{p.plugin->name, p.plugin->version, {}};
      for (const auto &[key, value] : p.options.effective())
        record.options.emplace_back(key, value);
      header.plugins.push_back(std::move(record));
    }
  header.clock_anchor = {info.realtime_anchor_ns, info.monotonic_anchor_ns};
  // A test hook: this host's realtime clock made wrong by that many ns, as
  // another host's may be (the tests of clock alignment across ranks).
  if (const char *skew = std::getenv("PROF_TEST_REALTIME_SKEW_NS"))
    header.clock_anchor.realtime_ns += static_cast<uint64_t>(std::strtoll(skew, nullptr, 10));
  header.session_start_ns = info.start_ns;
  if (!target.attached.empty()) {
    // The processes' launcher told them their rank; one report of several has none.
    if (target.attached.size() == 1) header.rank = target.attached.front().rank;
    header.world_size = target.attached.front().world_size;
    return header;
  }
  // prof runs under the launcher (mpirun, torchrun, srun), which tells it its rank.
  if (const char *variable = launcher_rank_variable()) header.rank = std::getenv(variable);
  if (const char *size = launcher_world_size()) header.world_size = size;
  return header;
}

void check_report_path(const std::string &path, bool force) {
  std::string problem;
  if (!core::output_path_allowed(path, force, &problem)) throw cli::UsageError(problem);
}

} // namespace

CaptureFrontEnd::CaptureFrontEnd(const RunContext &context, const core::CapturePlan &plan)
    : command_(context.command), console_(context.console), plan_(plan),
      selection_(select_plugins(context.command, context.registry)),
      // System-scope sources run here; process-scope ones inside the application.
      process_sources_(take_process_sources(selection_)),
      report_pattern_(report_output_path(context.command)), dump_(context),
      runner_(bus_config(context.command), context.console) {
  // A name with macros (%p: the process's pid) is checked once it is known.
  if (!report_pattern_.empty() && !core::has_output_macros(report_pattern_))
    check_report_path(report_pattern_, command_.has("force-overwrite"));
  check_process_sources(process_sources_, runner_.context());
}

CaptureFrontEnd::~CaptureFrontEnd() = default;

AgentSetup *CaptureFrontEnd::agent() {
  // The agent carries the application's prof_start()/prof_stop(), its
  // steps (--hang-timeout watches them) and its unfinished slices at dumps.
  if (!agent_ && (!process_sources_.empty() || plan_.range != core::CaptureRange::None ||
                  plan_.hang_timeout_ns != 0 || !plan_.step_marker_name.empty())) {
    agent_ = std::make_unique<AgentSetup>(process_sources_);
    agent_->mark_steps_with(plan_.step_marker_name, plan_.step_marker_domain);
    if (plan_.flight_bytes != 0 || plan_.flight_ns != 0) agent_->answer_dumps();
    agent_->watch_stalls(plan_.hang_timeout_ns);
  }
  return agent_.get();
}

core::CaptureController &
CaptureFrontEnd::start(const CaptureTarget &target,
                       core::CaptureController::EndApplication end_application) {
  const bool force = command_.has("force-overwrite");
  const std::string host = host_name();
  create_visual_profiler_folder(command_);
  // One report for the whole capture takes its name now; windows name theirs
  // when they open.
  std::string report = report_pattern_;
  name_facts_ = {target.pids.front(), host, std::time(nullptr)};
  attached_reports_ = per_process_reports(target, force);
  if (!attached_reports_.empty()) {
    attached_ = target.attached;
    report = attached_reports_.front(); // the whole, until it is split at the end
  }
  if (!plan_.windowed() && attached_reports_.empty())
    split_variable_ = core::rank_variable_to_split(report);
  if (!split_variable_.empty()) name_facts_.variables[split_variable_] = ""; // the launcher's part
  if (!plan_.windowed() && core::has_output_macros(report)) {
    report = core::expand_output_name(report, name_facts_, ".profrep");
    check_report_path(report, force);
  }
  // Other prof processes see the session through its control socket. A
  // name the user gave is refused before the processes run; the default
  // one's socket waits until they do (released()).
  const bool named = !report.empty() && !core::has_output_macros(report);
  SessionFacts facts{target.session,
                     "",
                     target.pids.front(),
                     target.display,
                     named            ? fs::absolute(report).string()
                     : report.empty() ? "-"
                                      : report,
                     "",
                     target.log};
  if (command_.has("session-new"))
    control_ = open_session_control(command_, std::move(facts), console_);
  else
    unopened_control_ = std::move(facts);
  runner_.identify({target.session, target.pids.front(), target.display, host});
  // The session socket closes first when the capture stops: its thread may be
  // in the controller.
  runner_.before_stop([this] { control_.reset(); });
  if (AgentSetup *shared = agent())
    runner_.add_shared(shared_event_source(
        *shared, agent_bus_config(command_, bus_config(command_)), runner_.context()));
  std::string error = runner_.add_sources(choices_of(selection_.sources));
  if (error.empty()) error = runner_.open_exporters(choices_of(selection_.exporters));
  if (!error.empty()) throw std::runtime_error(error);

  prof_session_info &session = runner_.context().session;
  session.start_ns = core::session_now_ns();
  report::Header header = report_header(target, selection_, process_sources_, session);
  details_.describe(header, session); // exporters read it through their session info
  if (plan_.windowed() && report_pattern_.empty())
    console_.line("no report will be written (give -o NAME, or name each window with "
                  "'prof start -o NAME'); exporters see every window");
  auto reports = std::make_unique<core::WindowReports>(report, force, std::move(header),
                                                       target.pids.front(), host);
  if (plan_.flight_bytes || plan_.flight_ns) {
    if (report.empty())
      throw cli::UsageError("--flight-recorder writes its dumps as reports: give -o NAME");
    // With no exporter, the recorder's rings are all that hold argument ids.
    reports->keep_latest({plan_.flight_bytes, plan_.flight_ns},
                         selection_.exporters.empty() ? &runner_.context().catalog.args : nullptr);
  }
  plan_.reports_split = !attached_reports_.empty() || !split_variable_.empty();
  core::CaptureController &controller =
      runner_.control(plan_, std::move(reports), std::move(end_application));
  // Flight recorder dumps of several processes split as they are written.
  if (!attached_reports_.empty())
    controller.on_dump([this, dumps = size_t{0}](const std::string &path) mutable {
      split_already_.insert(path);
      split_per_process(path, dumps++);
    });
  if (control_) control_->set_controller(&controller);
  if (error = runner_.start(); !error.empty()) throw std::runtime_error(error);
  return controller;
}

void CaptureFrontEnd::released() {
  if (agent_) agent_->reserve_initial_rings();
  if (!unopened_control_) return;
  control_ = open_session_control(command_, std::move(*unopened_control_), console_);
  unopened_control_.reset();
  if (control_) control_->set_controller(&runner_.controller());
}

void CaptureFrontEnd::wait(const std::function<void()> &wait_for_processes, bool prompt) {
  {
    std::unique_ptr<Prompt> reader;
    if (plan_.interactive && prompt)
      reader = std::make_unique<Prompt>(runner_.controller(), plan_.prompt_timeout, detach_.fd);
    wait_for_processes();
  }
  control_.reset(); // no command may reach the controller from here on
}

bool CaptureFrontEnd::finish(int exit_code, int exit_signal) {
  ProgressBar progress(console_, "process profile data");
  progress.update(0.1);
  runner_.stop();
  progress.update(0.6);
  bool ok = runner_.finish(exit_code, exit_signal, [&progress] { progress.finish(); });
  if (ok && !split_variable_.empty()) ok = split_per_rank();
  if (ok && !attached_reports_.empty()) ok = split_per_process();
  dump_.write(runner_.reports());
  return ok;
}

std::vector<std::string> CaptureFrontEnd::per_process_reports(const CaptureTarget &target,
                                                              bool force) const {
  const bool names_each = report_pattern_.find("%p") != std::string::npos ||
                          report_pattern_.find("%q{") != std::string::npos;
  if (target.attached.size() < 2 || !names_each) return {};
  std::vector<std::string> paths;
  std::map<std::string, int> taken;
  for (const ProcessFacts &process : target.attached) {
    core::OutputNameFacts facts = name_facts_;
    facts.pid = process.pid;
    facts.variables.insert(process.environment.begin(), process.environment.end());
    std::string path;
    try {
      path = core::expand_output_name(report_pattern_, facts, ".profrep");
    } catch (const core::InputError &e) {
      throw cli::UsageError(std::string(e.what()) + " in process " + std::to_string(process.pid));
    }
    if (!fs::path(path).has_extension()) path += ".profrep";
    if (const auto [at, fresh] = taken.emplace(path, process.pid); !fresh)
      throw cli::UsageError("-o '" + report_pattern_ + "': processes " +
                            std::to_string(at->second) + " and " + std::to_string(process.pid) +
                            " would both write " + path +
                            "; name each with %p or a variable that differs (%q{RANK})");
    check_report_path(path, force);
    paths.push_back(path);
  }
  return paths;
}

bool CaptureFrontEnd::split_per_process() {
  const std::vector<std::string> written = runner_.reports().opened();
  bool ok = true;
  for (size_t window = 0; window < written.size(); ++window)
    if (!split_already_.contains(written[window]))
      ok = split_per_process(written[window], window) && ok;
  return ok;
}

bool CaptureFrontEnd::split_per_process(const std::string &written, size_t window) {
  const auto group_of = [this](const report::TrackRecord &process) {
    // A process the attached ones started goes with its ancestor.
    for (int pid = process.pid, depth = 0; pid > 1 && depth < 64; pid = parent_pid(pid), ++depth)
      for (size_t i = 0; i < attached_.size(); ++i)
        if (attached_[i].pid == pid) return static_cast<int>(i);
    return -1;
  };
  const auto describe = [this](int group, report::Header &header) {
    if (group < 0) return;
    const ProcessFacts &process = attached_[static_cast<size_t>(group)];
    header.rank = process.rank;
    header.world_size = process.world_size;
    header.command_display = process.command;
    header.argv = {process.command};
  };
  // --capture-steps: each report holds its process's steps, not the others'.
  report::GroupSpans spans;
  for (const auto &[pid, span] : runner_.controller().steps().spans())
    for (size_t i = 0; i < attached_.size(); ++i)
      if (attached_[i].pid == pid) spans[static_cast<int>(i)] = {span.begin, span.end};
  // Window (or dump) N's reports take -N before the extension, as their own names do.
  const auto path_for = [&](int group) {
    const fs::path whole =
        group < 0 ? fs::path(written) : fs::path(attached_reports_[static_cast<size_t>(group)]);
    const std::string suffix = group < 0    ? ".other-processes"
                               : window > 0 ? "-" + std::to_string(window + 1)
                                            : "";
    return fs::path(whole).replace_extension().string() + suffix + whole.extension().string();
  };
  try {
    for (const report::SplitOutput &out : report::split_report(
             written, group_of, path_for, describe, false, command_.has("force-overwrite"), spans))
      console_.line("Generated: " + fs::absolute(out.path).string() +
                    (out.group < 0 ? " (processes not attached to)"
                                   : " (process " + std::to_string(attached_[out.group].pid) +
                                         (attached_[out.group].rank.empty()
                                              ? ""
                                              : ", rank " + attached_[out.group].rank) +
                                         ")"));
  } catch (const std::exception &e) {
    console_.warning("cannot split " + written + " per process: " + e.what());
    return false;
  }
  return true;
}

bool CaptureFrontEnd::split_per_rank() {
  const std::vector<std::string> written = runner_.reports().opened();
  if (written.size() != 1) return true;
  const auto path_for = [this](int rank) {
    core::OutputNameFacts facts = name_facts_;
    facts.variables[split_variable_] = rank < 0 ? "" : std::to_string(rank);
    const std::string path = core::expand_output_name(report_pattern_, facts, ".profrep");
    return fs::path(path).has_extension() ? path : path + ".profrep";
  };
  try {
    for (const report::SplitOutput &out :
         report::split_by_rank(written.front(), path_for, command_.has("force-overwrite")))
      console_.line(
          "Generated: " + fs::absolute(out.path).string() +
          (out.group < 0 ? " (the launcher)" : " (rank " + std::to_string(out.group) + ")"));
  } catch (const std::exception &e) {
    console_.warning("cannot split the report per rank: " + std::string(e.what()));
    return false;
  }
  return true;
}

} // namespace prof::tool
