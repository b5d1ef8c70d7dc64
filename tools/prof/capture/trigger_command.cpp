#include "tools/prof/capture/trigger_command.hpp"

#include "core/control/trigger_request.hpp"
#include "tools/prof/capture/capture_plan_options.hpp"
#include "tools/prof/cli/option_table.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace prof::tool {
namespace {

namespace fs = std::filesystem;

// What the request carries in fields of its own, or what only this command uses.
constexpr std::string_view kNotPassed[] = {"trigger-dir", "capture-steps", "at-step",  "duration",
                                           "output",      "quiet",         "log-file", "debug",
                                           "debug-dump",  "help"};

std::string new_id() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &utc);
  std::random_device random;
  char id[48];
  std::snprintf(id, sizeof id, "%s-%04x", stamp, random() & 0xffff);
  return id;
}

// The options that select what to capture, as prof's arguments again.
std::vector<std::string> passed_options(const cli::CommandLine &command) {
  std::vector<std::string> args;
  for (const cli::GivenOption &option : command.options) {
    if (std::find(std::begin(kNotPassed), std::end(kNotPassed), option.name) !=
        std::end(kNotPassed))
      continue;
    const cli::OptionSpec *spec = cli::find_option(option.name);
    args.push_back("--" + option.name);
    if (spec && cli::takes_value(*spec)) args.push_back(option.value);
  }
  for (const std::string &path : command.plugin_paths)
    args.insert(args.end(), {"--plugin-path", fs::absolute(path).string()});
  for (const cli::PluginSpec &plugin : command.plugins) {
    std::string spec = plugin.name;
    for (const auto &[key, value] : plugin.options)
      spec += " " + key + "=" + value;
    args.insert(args.end(), {"--plugin", spec});
  }
  return args;
}

// Writes `text` as DIR/NAME all at once: a hidden file renamed into place,
// so an agent never reads half of it.
void write_atomically(const fs::path &dir, const std::string &name, const std::string &text) {
  const fs::path temporary = dir / ("." + name + ".tmp");
  const fs::path final_path = dir / name;
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::runtime_error("cannot write " + temporary.string() + ": " + std::strerror(errno));
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                       fchmod(fd, 0644) == 0 && fsync(fd) == 0;
  const int write_errno = errno;
  close(fd);
  if (!written || std::rename(temporary.c_str(), final_path.c_str()) != 0) {
    const int error = written ? errno : write_errno;
    std::error_code ec;
    fs::remove(temporary, ec);
    throw std::runtime_error("cannot write " + final_path.string() + ": " + std::strerror(error));
  }
}

} // namespace

int run_trigger(const RunContext &context) {
  const cli::CommandLine &command = context.command;
  if (command.has_app())
    throw cli::UsageError("prof trigger asks the processes watching a folder: it takes no "
                          "application or process ids");
  const std::string *dir_text = command.value("trigger-dir");
  if (!dir_text)
    throw cli::UsageError(
        "prof trigger: expected --trigger-dir DIR, the folder the agents watch (PROF_TRIGGER_DIR)");
  std::error_code ec;
  if (!fs::is_directory(*dir_text, ec))
    throw cli::UsageError("--trigger-dir '" + *dir_text + "': expected an existing folder");
  if (command.has("dynamic"))
    throw cli::UsageError("--dynamic: a triggered capture has no (prof) prompt");
  const core::CapturePlan plan = capture_plan(command);
  if (plan.range != core::CaptureRange::Steps && plan.duration.count() == 0)
    throw cli::UsageError("prof trigger: expected --capture-steps K or --duration SECONDS: nobody "
                          "is there to stop a triggered capture");
  const std::string *output = command.value("output");
  if (!output)
    throw cli::UsageError("prof trigger: expected -o NAME for the reports (e.g. -o "
                          "/shared/run/r%q{RANK}, expanded in each process)");

  control::TriggerRequest request;
  request.id = new_id();
  request.capture_steps = plan.range == core::CaptureRange::Steps ? plan.step_count : 0;
  request.at_step = plan.at_step;
  request.duration_s = static_cast<double>(plan.duration.count()) / 1e9;
  request.options = passed_options(command);
  // The processes' working folders are theirs: a relative name is this one's.
  request.output = fs::path(*output).is_absolute() ? *output : fs::absolute(*output).string();

  const fs::path dir = fs::absolute(*dir_text);
  write_atomically(dir, request.id + ".json", control::encode_trigger_request(request));
  context.console.line("request " + request.id + " written to " + (dir / request.id).string() +
                       ".json; the first waiting agent of each host watching it starts prof "
                       "within a second (its console: trigger-" +
                       request.id + ".log in that host's session folder)");
  return kExitOk;
}

} // namespace prof::tool
