#include <prof/output/exporter_output.hpp>

#include <prof/declared_options.hpp>

#include <unistd.h>

namespace prof::output {

int output_pid(const prof_session_info &session) {
  return session.target_pid > 0 ? session.target_pid : static_cast<int>(::getpid());
}

std::optional<OutputOptions> OutputOptions::read(const ExportHost &host,
                                                 std::span<const prof_option_desc> table,
                                                 std::string_view owner) {
  const DeclaredOptions declared(host, table);
  OutputOptions options{std::string(declared.text("path")), declared.flag("overwrite")};
  if (options.path.empty()) {
    host.log(PROF_LOG_ERROR, std::string(owner) + ": option path is required");
    return std::nullopt;
  }
  return options;
}

ExporterOutput::ExporterOutput(ExportHost host, std::string owner, std::string extension)
    : host_(host), owner_(std::move(owner)), extension_(std::move(extension)), file_(owner_) {}

bool ExporterOutput::open(std::span<const prof_option_desc> table) {
  failed_ = true;
  logged_ = false;
  const std::optional<OutputOptions> options = OutputOptions::read(host_, table, owner_);
  if (!options) {
    logged_ = true;
    return false;
  }
  const std::string name =
      resolve_output_path(options->path, output_pid(host_.session()), extension_);
  if (!file_.open(name, options->overwrite)) return fail(file_.error());
  failed_ = false;
  return true;
}

bool ExporterOutput::write(std::string &text) {
  if (failed_) return false;
  if (!text.empty() && !file_.write(text.data(), text.size())) return fail(file_.error());
  text.clear();
  return true;
}

bool ExporterOutput::commit() {
  if (failed_) return false;
  if (!file_.commit()) return fail(file_.error());
  return true;
}

bool ExporterOutput::fail(const std::string &message) {
  failed_ = true;
  file_.discard();
  if (!logged_) host_.log(PROF_LOG_ERROR, message);
  logged_ = true;
  return false;
}

void ExporterOutput::log_written(uint64_t events) const {
  host_.log(PROF_LOG_INFO, owner_ + ": wrote " + std::to_string(events) + " events to '" +
                               file_.final_path() + "'");
}

} // namespace prof::output
