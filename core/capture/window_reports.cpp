#include "core/capture/window_reports.hpp"

#include "core/events/report_sink.hpp"
#include "core/plugin_host/output_name.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>

namespace prof::core {
namespace {

namespace fs = std::filesystem;

/// A window's .profrep: a writer and the sink that feeds it.
class ReportOutput final : public WindowOutput {
public:
  ReportOutput(const std::string &path, const report::Header &header, bool force)
      : path_(fs::absolute(path).string()) {
    writer_.open(path, header, force);
    sink_ = std::make_unique<ReportSink>(writer_);
  }
  EventSink &sink() override { return *sink_; }
  std::string finish(const Catalog &catalog, const CaptureEnd &end) override {
    sink_->finish(catalog, end);
    return sink_->error();
  }
  void discard() override {
    try {
      writer_.finish(report::Footer{});
    } catch (const std::exception &) {
      // the file goes anyway
    }
    std::error_code ec;
    fs::remove(path_, ec);
  }
  std::string description() const override { return path_; }

private:
  std::string path_;
  report::ReportWriter writer_;
  std::unique_ptr<ReportSink> sink_;
};

/// A window with no report: its events reach the exporters only.
class NoOutput final : public WindowOutput {
  class Nothing final : public EventSink {
    void consume(const prof_event *, size_t) override {}
  } nothing_;

public:
  EventSink &sink() override { return nothing_; }
  std::string finish(const Catalog &, const CaptureEnd &) override { return ""; }
  void discard() override {}
  std::string description() const override { return ""; }
};

std::string with_index(const std::string &path, uint32_t index) {
  const fs::path p(path);
  return (p.parent_path() /
          (p.stem().string() + "-" + std::to_string(index) + p.extension().string()))
      .string();
}

} // namespace

WindowReports::WindowReports(std::string pattern, bool force_overwrite, report::Header header,
                             int pid, std::string host)
    : pattern_(std::move(pattern)), force_(force_overwrite), header_(std::move(header)), pid_(pid),
      host_(std::move(host)) {}

std::string WindowReports::path_for(const WindowFacts &facts) const {
  const std::string &name = facts.output_name.empty() ? pattern_ : facts.output_name;
  if (name.empty()) return "";
  std::string path = fs::path(name).has_extension() ? name : name + ".profrep";
  const bool indexed = name.find("%i") != std::string::npos;
  if (has_output_macros(path))
    path = expand_output_name(path, {pid_, host_, std::time(nullptr)}, ".profrep");
  if (facts.output_name.empty() && !indexed && facts.index > 1)
    path = with_index(path, facts.index);
  return path;
}

void WindowReports::keep_latest(FlightBound bound, ArgsTable *reusable_args) {
  flight_ = bound;
  sweeper_ = reusable_args ? std::make_unique<ArgsSweeper>(*reusable_args) : nullptr;
}

std::unique_ptr<WindowOutput> WindowReports::open(const WindowFacts &facts,
                                                  std::string *error) const {
  if (flight_.on()) {
    if (pattern_.empty() && facts.output_name.empty()) {
      *error = "--flight-recorder writes its dumps as reports: give -o NAME";
      return nullptr;
    }
    return std::make_unique<FlightRecorderOutput>(
        flight_,
        [this, facts](uint32_t dump, uint64_t start_ns, std::string *dump_error) {
          WindowFacts at_dump = facts;
          at_dump.index = dump;
          at_dump.start_ns = start_ns;
          return open_report(at_dump, dump_error);
        },
        sweeper_.get());
  }
  return open_report(facts, error);
}

std::unique_ptr<WindowOutput> WindowReports::open_report(const WindowFacts &facts,
                                                         std::string *error) const {
  try {
    const std::string path = path_for(facts);
    if (path.empty()) return std::make_unique<NoOutput>();
    if (!output_path_allowed(path, force_, error)) return nullptr;
    report::Header header = header_;
    header.session_start_ns = std::max(header.session_start_ns, facts.start_ns);
    auto output = std::make_unique<ReportOutput>(path, header, force_);
    const std::lock_guard lock(mutex_);
    opened_.push_back(output->description());
    return output;
  } catch (const std::exception &e) {
    *error = e.what();
    return nullptr;
  }
}

std::vector<std::string> WindowReports::opened() const {
  const std::lock_guard lock(mutex_);
  return opened_;
}

} // namespace prof::core
