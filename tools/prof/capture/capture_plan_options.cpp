#include "tools/prof/capture/capture_plan_options.hpp"

#include "tools/prof/cli/usage_error.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <csignal>
#include <cstring>

namespace prof::tool {
namespace {

// N of "repeat:N" in `whole`, from 1 to 100000.
uint32_t parse_count(const std::string &whole, const std::string &text, const std::string &what) {
  uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0 ||
      value > 100000)
    throw cli::UsageError("--capture-range-end '" + whole + "': " + what);
  return value;
}

void parse_range_end(const std::string &text, CapturePlan &plan) {
  const std::string expected =
      "expected stop, stop-shutdown, repeat, repeat:N or repeat-shutdown:N (N from 1)";
  const size_t colon = text.find(':');
  const std::string word = text.substr(0, colon);
  const std::string count = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (word == "stop" && colon == std::string::npos)
    plan.range_end = RangeEnd::Stop;
  else if (word == "stop-shutdown" && colon == std::string::npos)
    plan.range_end = RangeEnd::StopShutdown;
  else if (word == "repeat")
    plan.range_end = RangeEnd::Repeat;
  else if (word == "repeat-shutdown" && colon != std::string::npos)
    plan.range_end = RangeEnd::RepeatShutdown;
  else
    throw cli::UsageError("--capture-range-end '" + text + "': " + expected);
  if (colon != std::string::npos) plan.range_limit = parse_count(text, count, expected);
}

// --flight-recorder 64M (bytes: K, M, G, binary) or 30 (seconds).
void parse_flight_bound(const std::string &text, core::CapturePlan &plan) {
  const std::string expected = "--flight-recorder '" + text +
                               "': expected a size (e.g. 64M, 512K, 1G: 64K to 64G) or seconds "
                               "(e.g. 30)";
  double number = 0;
  const char *end_of_text = text.data() + text.size();
  auto [end, ec] = std::from_chars(text.data(), end_of_text, number);
  if (text.empty() || ec != std::errc() || !(number > 0)) throw cli::UsageError(expected);
  const std::string unit(end, end_of_text);
  if (unit.empty() || unit == "s") {
    if (number > 86400) throw cli::UsageError(expected);
    plan.flight_ns = static_cast<uint64_t>(number * 1e9);
    return;
  }
  const double scale = unit == "K" || unit == "k"   ? 1024.0
                       : unit == "M" || unit == "m" ? 1024.0 * 1024
                       : unit == "G" || unit == "g" ? 1024.0 * 1024 * 1024
                                                    : 0;
  const double bytes = number * scale;
  if (scale == 0 || bytes < 64 * 1024.0 || bytes > 64.0 * 1024 * 1024 * 1024)
    throw cli::UsageError(expected);
  plan.flight_bytes = static_cast<uint64_t>(bytes);
}

} // namespace

std::chrono::nanoseconds parse_seconds(const std::string &option, const std::string &text) {
  double seconds = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !(seconds >= 0) ||
      seconds > 1e7)
    throw cli::UsageError("--" + option + " '" + text +
                          "': expected seconds, a number from 0 (e.g. 2 or 0.5)");
  return std::chrono::nanoseconds(static_cast<int64_t>(seconds * 1e9));
}

int parse_signal(const std::string &option, const std::string &text) {
  std::string upper = text;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (upper == "NONE") return 0;
  int number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (!text.empty() && ec == std::errc() && end == text.data() + text.size() && number >= 1 &&
      number < NSIG)
    return number;
  if (upper.starts_with("SIG")) upper.erase(0, 3);
  for (int signal = 1; signal < NSIG; ++signal)
    if (const char *name = sigabbrev_np(signal); name && upper == name) return signal;
  throw cli::UsageError("--" + option + " '" + text +
                        "': expected none, a signal name (sigterm, sigkill, sigint) or number");
}

CapturePlan capture_plan(const cli::CommandLine &command) {
  CapturePlan plan;
  plan.from_start = command.value_or("profile-from-start", "on") == "on";
  if (const std::string *delay = command.value("delay"))
    plan.delay = parse_seconds("delay", *delay);
  if (const std::string *duration = command.value("duration")) {
    plan.duration = parse_seconds("duration", *duration);
    if (plan.duration.count() == 0)
      throw cli::UsageError("--duration '" + *duration + "': expected more than 0 seconds");
  }
  if (const std::string *kill = command.value("kill"))
    plan.kill_signal = parse_signal("kill", *kill);
  const std::string range = command.value_or("capture-range", "none");
  if (range == "profiler-api") plan.range = CaptureRange::ProfilerApi;
  if (range == "annotation") plan.range = CaptureRange::Annotation;
  if (const std::string *name = command.value("annotation-capture")) {
    if (plan.range != CaptureRange::Annotation)
      throw cli::UsageError("--annotation-capture needs --capture-range annotation");
    const size_t at = name->rfind('@');
    plan.annotation_name = name->substr(0, at);
    plan.annotation_domain = at == std::string::npos ? "" : name->substr(at + 1);
    if (plan.annotation_name.empty() || (at != std::string::npos && plan.annotation_domain.empty()))
      throw cli::UsageError("--annotation-capture '" + *name + "': expected NAME or NAME@DOMAIN");
  } else if (plan.range == CaptureRange::Annotation) {
    throw cli::UsageError("--capture-range annotation needs --annotation-capture NAME[@DOMAIN]");
  }
  if (const std::string *marker = command.value("step-marker")) {
    const size_t at = marker->rfind('@');
    plan.step_marker_name = marker->substr(0, at);
    plan.step_marker_domain = at == std::string::npos ? "" : marker->substr(at + 1);
    if (plan.step_marker_name.empty() ||
        (at != std::string::npos && plan.step_marker_domain.empty()))
      throw cli::UsageError("--step-marker '" + *marker + "': expected NAME or NAME@DOMAIN");
  }
  if (command.has("capture-steps")) {
    if (plan.range != CaptureRange::None)
      throw cli::UsageError("--capture-steps cannot be used with --capture-range: the steps open "
                            "and close the window");
    plan.range = CaptureRange::Steps;
    plan.step_count = static_cast<uint32_t>(command.int_or("capture-steps", 1));
    plan.at_step = static_cast<uint64_t>(command.int_or("at-step", 0));
  } else if (command.has("at-step")) {
    throw cli::UsageError("--at-step needs --capture-steps K: it names the first of K steps");
  }
  if (const std::string *end = command.value("capture-range-end")) {
    if (plan.range == CaptureRange::None)
      throw cli::UsageError("--capture-range-end needs --capture-range profiler-api or annotation, "
                            "or --capture-steps");
    parse_range_end(*end, plan);
  }
  if (command.has("trace-rotation")) {
    plan.rotation = static_cast<uint32_t>(command.int_or("trace-rotation", 1));
    if (plan.duration.count() == 0) throw cli::UsageError("--trace-rotation needs --duration");
    if (plan.range != CaptureRange::None)
      throw cli::UsageError("--trace-rotation cannot be used with --capture-range or "
                            "--capture-steps");
  }
  if (plan.range != CaptureRange::None && !plan.from_start)
    throw cli::UsageError(
        std::string(plan.range == CaptureRange::Steps ? "--capture-steps" : "--capture-range") +
        " and --profile-from-start off cannot be used together: a capture "
        "range already starts with collection off");
  if (const std::string *flight = command.value("flight-recorder")) {
    parse_flight_bound(*flight, plan);
    for (const char *option : {"capture-range", "capture-steps", "duration", "delay", "dynamic"})
      if (command.has(option))
        throw cli::UsageError(std::string("--flight-recorder cannot be used with --") + option +
                              ": it keeps the latest events of the whole run");
    if (!plan.from_start)
      throw cli::UsageError("--flight-recorder and --profile-from-start off cannot be used "
                            "together: it keeps the latest events of the whole run");
  }
  if (const std::string *hang = command.value("hang-timeout")) {
    if (plan.flight_bytes == 0 && plan.flight_ns == 0)
      throw cli::UsageError("--hang-timeout needs --flight-recorder: a hang writes what it holds");
    plan.hang_timeout_ns = static_cast<uint64_t>(parse_seconds("hang-timeout", *hang).count());
    if (plan.hang_timeout_ns == 0)
      throw cli::UsageError("--hang-timeout '" + *hang + "': expected more than 0 seconds");
  }
  plan.interactive = command.value_or("dynamic", "off") == "on";
  if (command.has("dynamic-timeout")) {
    if (!plan.interactive) throw cli::UsageError("--dynamic-timeout needs --dynamic on");
    plan.prompt_timeout = std::chrono::seconds(command.int_or("dynamic-timeout", 1800));
  }
  if (plan.interactive && (plan.range != CaptureRange::None || plan.delay.count() > 0))
    throw cli::UsageError("--dynamic on cannot be used with --capture-range, --capture-steps or "
                          "--delay: collection starts at the prompt");
  return plan;
}

} // namespace prof::tool
