#include "pprof_exporter.hpp"

#include "gzip_bytes.hpp"

#include <prof/declared_options.hpp>
#include <prof/output/output_file.hpp>
#include <prof/session_plugins.hpp>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <tuple>

namespace prof::pprof {

namespace {

int64_t number(const std::string &text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() ? value : 0;
}

// An unsigned argument of a slice or instant by key, if it has one.
std::optional<uint64_t> uint_arg(const ExportHost &host, const prof_event &e,
                                 std::string_view key) {
  for (const prof_arg &a : host.args(e.args))
    if (host.string(a.key) == key) {
      if (a.type == PROF_ARG_UINT) return a.value.u;
      if (a.type == PROF_ARG_INT && a.value.i >= 0) return static_cast<uint64_t>(a.value.i);
    }
  return std::nullopt;
}

prof_stack_id stack_arg(const ExportHost &host, const prof_event &e) {
  for (const prof_arg &a : host.args(e.args))
    if (a.type == PROF_ARG_STACK) return static_cast<prof_stack_id>(a.value.u);
  return 0;
}

SampleLabel text_label(std::string key, std::string text) {
  return {std::move(key), std::move(text), 0, false, {}};
}
SampleLabel number_label(std::string key, int64_t value) {
  return {std::move(key), {}, value, true, {}};
}

} // namespace

int64_t sampling_period_ns(std::string_view plugins) {
  constexpr int64_t kSecond = 1'000'000'000;
  const std::string python = session_plugin_option(plugins, "python", "sampling");
  if (!python.empty() && python != "false") {
    const int64_t hz = number(session_plugin_option(plugins, "python", "frequency"));
    if (hz > 0) return kSecond / hz;
  }
  if (const int64_t period = number(session_plugin_option(plugins, "cpu-perf", "period"));
      period > 0)
    return period;
  const int64_t hz = number(session_plugin_option(plugins, "cpu-perf", "frequency"));
  return hz > 0 ? kSecond / hz : 0;
}

bool PprofExporter::begin() {
  const DeclaredOptions options(host_, kOptions);
  const std::string_view profile = options.text("profile");
  want_cpu_ = profile == "all" || profile == "cpu";
  want_heap_ = profile == "all" || profile == "heap";
  want_device_ = profile == "all" || profile == "device";
  rotate_ns_ = static_cast<uint64_t>(options.integer("rotate")) * 1'000'000'000;
  per_step_ = options.flag("per-step");
  overwrite_ = options.flag("overwrite");
  if (rotate_ns_ > 0 && per_step_) {
    host_.log(PROF_LOG_ERROR, "pprof: options rotate and per-step exclude each other");
    return false;
  }
  return file_.open(kOptions);
}

bool PprofExporter::consume(const prof_event *events, size_t count) {
  if (file_.failed()) return false;
  for (size_t i = 0; i < count; ++i) {
    const prof_event &e = events[i];
    first_ts_ = std::min(first_ts_, e.ts);
    last_ts_ = std::max(last_ts_, e.ts + e.duration);
    if (want_device_) launches_.add(e);
    // CPU samples only: a stack with a category belongs to another event.
    if (e.type == PROF_EVENT_SAMPLE && e.id != 0 && e.category == 0) {
      if (want_cpu_ || want_device_)
        cpu_samples_.push_back({e.ts, e.track, static_cast<prof_stack_id>(e.id)});
    } else if (e.type == PROF_EVENT_SLICE && e.kind == PROF_CATEGORY_ANNOTATION) {
      if (const auto step = uint_arg(host_, e, PROF_STEP_ARG)) {
        const prof_track_desc *desc = host_.track(e.track);
        steps_[desc != nullptr ? desc->pid : 0].push_back({e.ts, e.ts + e.duration, *step});
      }
    } else if (e.type == PROF_EVENT_INSTANT && want_heap_) {
      const std::string_view category = host_.string(e.category);
      const bool peak = category == "heap/peak-stack";
      if (peak || category == "heap/leak-stack")
        heap_stacks_.push_back({e.track, stack_arg(host_, e), peak,
                                uint_arg(host_, e, "bytes").value_or(0),
                                uint_arg(host_, e, "samples").value_or(0), e.ts});
    }
  }
  return true;
}

std::vector<uint64_t> PprofExporter::locations(ProfileBuilder &profile, prof_stack_id stack) const {
  const auto [frames, count] = host_.stack(stack);
  std::vector<uint64_t> ids;
  ids.reserve(count);
  for (uint32_t i = 0; i < count; ++i) { // leaf first, as pprof wants them
    const std::string_view frame = host_.string(frames[i]);
    ids.push_back(profile.location(frame.empty() ? "[unknown]" : frame));
  }
  return ids;
}

std::vector<SampleLabel> PprofExporter::common_labels() const {
  const prof_session_info &session = host_.session();
  std::vector<SampleLabel> labels;
  if (session.hostname != nullptr && session.hostname[0] != '\0')
    labels.push_back(text_label("host", session.hostname));
  if (session.struct_size >= offsetof(prof_session_info, rank) + sizeof(session.rank) &&
      session.rank != nullptr && session.rank[0] != '\0')
    labels.push_back(text_label("rank", session.rank));
  return labels;
}

int64_t PprofExporter::step_at(int32_t pid, uint64_t ts) const {
  const auto found = steps_.find(pid);
  if (found == steps_.end()) return -1;
  const std::vector<StepWindow> &windows = found->second;
  // The latest window begun at or before ts that still runs (steps nest rarely).
  auto it = std::upper_bound(windows.begin(), windows.end(), ts,
                             [](uint64_t t, const StepWindow &w) { return t < w.begin; });
  while (it != windows.begin()) {
    --it;
    if (ts < it->end) return static_cast<int64_t>(it->step);
    if (windows.end() - it > 8) break; // windows begun long before: none reach ts
  }
  return -1;
}

void PprofExporter::add_cpu_samples(ProfileBuilder &profile, size_t first_value, int64_t period,
                                    const ProfileWindow &window) const {
  // Samples of one stack, thread and step are one pprof sample with a count.
  std::map<std::tuple<prof_stack_id, prof_track_id, int64_t>, int64_t> counts;
  for (const CpuSample &s : cpu_samples_) {
    const prof_track_desc *desc = host_.track(s.track);
    const int64_t step = step_at(desc != nullptr ? desc->pid : 0, s.ts);
    if (window.holds(s.ts, step)) counts[{s.stack, s.track, step}] += 1;
  }
  const std::vector<SampleLabel> common = common_labels();
  std::vector<int64_t> values(profile.sample_types(), 0);
  for (const auto &[key, count] : counts) {
    const auto [stack, track, step] = key;
    std::vector<SampleLabel> labels = common;
    if (const prof_track_desc *desc = host_.track(track)) {
      if (desc->pid != 0) labels.push_back(number_label("pid", desc->pid));
      if (desc->tid != 0) labels.push_back(number_label("tid", desc->tid));
      if (desc->name != nullptr && desc->name[0] != '\0')
        labels.push_back(text_label("thread", desc->name));
    }
    if (step >= 0) labels.push_back(number_label("step", step));
    std::fill(values.begin(), values.end(), 0);
    values[first_value] = count;
    if (period > 0) values[first_value + 1] = count * period;
    profile.add_sample(locations(profile, stack), values, labels);
  }
}

void PprofExporter::add_heap_stacks(ProfileBuilder &profile, size_t first_value,
                                    const ProfileWindow &window) const {
  const std::vector<SampleLabel> common = common_labels();
  std::vector<int64_t> values(profile.sample_types(), 0);
  for (const HeapStack &h : heap_stacks_) {
    if (!window.holds(h.ts, window.step)) continue;
    std::vector<SampleLabel> labels = common;
    const prof_track_desc *desc = host_.track(h.process);
    if (desc != nullptr && desc->pid != 0) labels.push_back(number_label("pid", desc->pid));
    std::fill(values.begin(), values.end(), 0);
    const size_t at = first_value + (h.peak ? 2 : 0);
    values[at] = static_cast<int64_t>(h.bytes);
    values[at + 1] = static_cast<int64_t>(h.blocks);
    profile.add_sample(locations(profile, h.stack), values, labels);
  }
}

prof_stack_id PprofExporter::stack_at_call(const LaunchCall &call, int64_t period) const {
  const auto found = samples_by_thread_.find(call.track);
  if (found == samples_by_thread_.end()) return 0;
  const auto &samples = found->second;
  auto it = std::upper_bound(samples.begin(), samples.end(),
                             std::pair<uint64_t, prof_stack_id>{call.end, UINT32_MAX});
  if (it == samples.begin()) return 0;
  --it;
  constexpr uint64_t kNoPeriod = 10'000'000; // 10 ms where the period is unknown
  const uint64_t reach = period > 0 ? static_cast<uint64_t>(period) : kNoPeriod;
  return it->first + reach >= call.begin ? it->second : 0;
}

void PprofExporter::add_kernels(ProfileBuilder &profile, size_t first_value, int64_t period,
                                const ProfileWindow &window) const {
  // Kernels of one name, launching call, thread stack, device and step are
  // one pprof sample with their summed time.
  using Key = std::tuple<prof_string_id, prof_string_id, prof_stack_id, prof_track_id,
                         prof_track_id, int64_t>;
  std::map<Key, int64_t> times;
  for (const LaunchedKernel &k : launches_.kernels()) {
    const prof_track_id thread = k.call != nullptr ? k.call->track : 0;
    const prof_track_desc *owner = host_.track(thread != 0 ? thread : k.device);
    const uint64_t launched = k.call != nullptr ? k.call->begin : k.ts;
    const int64_t step = step_at(owner != nullptr ? owner->pid : 0, launched);
    if (!window.holds(launched, step)) continue;
    const prof_stack_id stack = k.call != nullptr ? stack_at_call(*k.call, period) : 0;
    times[{k.name, k.call != nullptr ? k.call->name : 0, stack, thread, k.device, step}] +=
        static_cast<int64_t>(k.duration);
  }
  const std::vector<SampleLabel> common = common_labels();
  std::vector<int64_t> values(profile.sample_types(), 0);
  for (const auto &[key, time] : times) {
    const auto [kernel, call, stack, thread, device, step] = key;
    std::vector<uint64_t> ids{profile.location(host_.string(kernel))};
    if (call != 0) ids.push_back(profile.location(host_.string(call)));
    if (stack != 0)
      for (uint64_t id : locations(profile, stack))
        ids.push_back(id);
    std::vector<SampleLabel> labels = common;
    const prof_track_desc *owner = host_.track(thread != 0 ? thread : device);
    if (owner != nullptr && owner->pid != 0) labels.push_back(number_label("pid", owner->pid));
    if (const prof_track_desc *t = thread != 0 ? host_.track(thread) : nullptr) {
      if (t->tid != 0) labels.push_back(number_label("tid", t->tid));
      if (t->name != nullptr && t->name[0] != '\0') labels.push_back(text_label("thread", t->name));
    }
    if (const prof_track_desc *d = host_.track(device); d != nullptr && d->name != nullptr)
      labels.push_back(text_label("device", d->name));
    if (step >= 0) labels.push_back(number_label("step", step));
    std::fill(values.begin(), values.end(), 0);
    values[first_value] = time;
    profile.add_sample(ids, values, labels);
  }
}

std::string PprofExporter::build_profile(const ProfileWindow &window, int64_t period,
                                         uint64_t &samples) const {
  const prof_session_info &session = host_.session();
  ProfileBuilder profile;
  // A step's window holds CPU samples only: heap stacks belong to no step.
  const bool heap = want_heap_ && !heap_stacks_.empty() && window.step < 0;
  const bool device = want_device_ && !launches_.empty();
  const bool cpu = want_cpu_ && (!cpu_samples_.empty() || (!heap && !device));
  if (cpu) {
    profile.add_sample_type("samples", "count");
    if (period > 0) {
      profile.add_sample_type("cpu", "nanoseconds");
      profile.set_period("cpu", "nanoseconds", period);
    }
  }
  const size_t heap_first = profile.sample_types();
  if (heap) {
    profile.add_sample_type("inuse_space", "bytes");
    profile.add_sample_type("inuse_sampled_blocks", "count");
    profile.add_sample_type("peak_space", "bytes");
    profile.add_sample_type("peak_sampled_blocks", "count");
  }
  const size_t device_first = profile.sample_types();
  if (device) profile.add_sample_type("kernel_time", "nanoseconds");
  profile.set_default_sample_type(cpu    ? (period > 0 ? "cpu" : "samples")
                                  : heap ? "inuse_space"
                                         : "kernel_time");
  if (cpu) add_cpu_samples(profile, 0, period, window);
  if (heap) add_heap_stacks(profile, heap_first, window);
  if (device) add_kernels(profile, device_first, period, window);
  if (session.command != nullptr && session.command[0] != '\0')
    profile.add_comment(std::string("prof: ") + session.command);
  if (window.step >= 0) profile.add_comment("step " + std::to_string(window.step));
  const uint64_t begin = std::max(window.begin, first_ts_);
  const uint64_t end = std::min(window.end - 1, last_ts_);
  if (begin <= end) {
    const bool anchored = session.struct_size >= offsetof(prof_session_info, monotonic_anchor_ns) +
                                                     sizeof(session.monotonic_anchor_ns) &&
                          session.realtime_anchor_ns != 0;
    const int64_t wall =
        anchored
            ? static_cast<int64_t>(session.realtime_anchor_ns) +
                  (static_cast<int64_t>(begin) - static_cast<int64_t>(session.monotonic_anchor_ns))
            : 0;
    profile.set_time(wall, static_cast<int64_t>(end - begin));
  }
  samples = profile.samples();
  return profile.serialize();
}

bool PprofExporter::write_windows(const std::vector<ProfileWindow> &windows, int64_t period) {
  std::vector<std::unique_ptr<output::OutputFile>> files;
  for (size_t i = 0; i < windows.size(); ++i) {
    uint64_t samples = 0;
    const std::string bytes = build_profile(windows[i], period, samples);
    if (samples == 0) continue; // nothing fell in this window
    const std::optional<std::string> zipped = gzip_bytes(bytes);
    if (!zipped) return file_.fail("pprof: zlib could not compress the profile");
    const std::string label =
        windows[i].step >= 0 ? "step" + std::to_string(windows[i].step) : std::to_string(i);
    auto file = std::make_unique<output::OutputFile>("pprof");
    if (!file->open(window_path(file_.final_path(), label), overwrite_) ||
        !file->write(zipped->data(), zipped->size()))
      return file_.fail(file->error());
    files.push_back(std::move(file));
  }
  uint64_t samples = 0;
  std::optional<std::string> whole = gzip_bytes(build_profile({}, period, samples));
  if (!whole) return file_.fail("pprof: zlib could not compress the profile");
  if (!file_.write(*whole)) return false;
  // Every file written: only now do they take their names.
  for (auto &file : files)
    if (!file->commit()) return file_.fail(file->error());
  if (!file_.commit()) return false;
  host_.print("pprof: " + std::to_string(cpu_samples_.size()) + " CPU samples, " +
              std::to_string(heap_stacks_.size()) + " heap stacks and " +
              std::to_string(launches_.kernels().size()) + " kernels written to " +
              file_.final_path() + " and, by " + (per_step_ ? "step" : "window") + ", to " +
              std::to_string(files.size()) + " profiles " +
              window_path(file_.final_path(), per_step_ ? "stepN" : "N"));
  return true;
}

bool PprofExporter::end() {
  if (file_.failed()) return false;
  for (auto &[pid, windows] : steps_)
    std::sort(windows.begin(), windows.end(),
              [](const StepWindow &a, const StepWindow &b) { return a.begin < b.begin; });
  if (want_device_ && !launches_.empty()) {
    for (const CpuSample &s : cpu_samples_)
      samples_by_thread_[s.track].emplace_back(s.ts, s.stack);
    for (auto &[track, samples] : samples_by_thread_)
      std::sort(samples.begin(), samples.end());
  }
  if (!want_cpu_) cpu_samples_.clear(); // kept only for the kernels' stacks
  const prof_session_info &session = host_.session();
  const bool has_plugins =
      session.struct_size >= offsetof(prof_session_info, plugins) + sizeof(session.plugins);
  const int64_t period =
      sampling_period_ns(has_plugins && session.plugins != nullptr ? session.plugins : "");
  if (rotate_ns_ > 0) return write_windows(time_windows(first_ts_, last_ts_, rotate_ns_), period);
  if (per_step_) {
    std::set<int64_t> steps;
    for (const auto &[pid, windows] : steps_)
      for (const StepWindow &w : windows)
        steps.insert(static_cast<int64_t>(w.step));
    return write_windows(step_windows(steps, first_ts_, last_ts_), period);
  }

  uint64_t samples = 0;
  std::optional<std::string> bytes = gzip_bytes(build_profile({}, period, samples));
  if (!bytes) return file_.fail("pprof: zlib could not compress the profile");
  if (!file_.write(*bytes) || !file_.commit()) return false;
  host_.print("pprof: " + std::to_string(cpu_samples_.size()) + " CPU samples, " +
              std::to_string(heap_stacks_.size()) + " heap stacks and " +
              std::to_string(launches_.kernels().size()) + " kernels written to " +
              file_.final_path());
  return true;
}

} // namespace prof::pprof
