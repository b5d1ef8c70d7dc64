#include "tools/prof/cli/option_table.hpp"

namespace prof::cli {
namespace {

using G = OptionGroup;
using K = ValueKind;

constexpr OptionSpec kOptions[] = {
    // 2.1 GCU capture
    {"profile-from-start", 0, K::Enum, G::Gcu, "on|off", 0, 0, "on|off",
     "start capturing at launch (default on); off waits for a start command"},
    {"query-events", 0, K::Flag, G::Gcu, "", 0, 0, "", "list the events of the devices"},
    {"query-activities", 0, K::Flag, G::Gcu, "", 0, 0, "", "list the activities of the devices"},
    {"query-trace", 0, K::Flag, G::Gcu, "", 0, 0, "", "list the trace domains of the devices"},
    {"enable-events", 0, K::Text, G::Gcu, "FILTER", 0, 0, "", "capture the events matching FILTER"},
    {"enable-activities", 0, K::Text, G::Gcu, "FILTER", 0, 0, "",
     "capture the activities matching FILTER, e.g. \"*/general/operator\""},
    {"export-events", 0, K::Text, G::Gcu, "FILE", 0, 0, "",
     "write the device events to a JSON file"},
    {"export-activities", 0, K::Text, G::Gcu, "FILE", 0, 0, "",
     "write the device activities to a JSON file"},
    {"import-events", 0, K::Text, G::Gcu, "FILE", 0, 0, "",
     "capture the events checked in a JSON file"},
    {"import-activities", 0, K::Text, G::Gcu, "FILE", 0, 0, "",
     "capture the activities checked in a JSON file"},
    {"devices", 0, K::IdList, G::Gcu, "IDS", 0, 0, "", "capture only these devices, e.g. 0,1"},
    {"metrics", 0, K::Text, G::Gcu, "METRIC", 0, 0, "", "collect an event/metric statistic"},
    {"gcu-utilization", 0, K::Flag, G::Gcu, "", 0, 0, "", "sample GCU utilization"},
    {"gcu-utilization-frequency", 0, K::Int, G::Gcu, "HZ", 1, 1000, "",
     "GCU utilization sampling rate, 1-1000 Hz (default 100)"},
    // 2.2 CPU capture
    {"cpu-profiling-callstack", 0, K::Flag, G::Cpu, "", 0, 0, "", "sample CPU call stacks"},
    {"cpu-profiling-frequency", 0, K::Int, G::Cpu, "HZ", 1, 100, "",
     "CPU call-stack sampling rate, 1-100 Hz (default 100)"},
    {"cpu-utilization", 0, K::Flag, G::Cpu, "", 0, 0, "", "sample CPU utilization"},
    {"memory-utilization", 0, K::Flag, G::Cpu, "", 0, 0, "", "sample host memory use"},
    {"utilization-frequency", 0, K::Int, G::Cpu, "HZ", 1, 100, "",
     "CPU and memory utilization sampling rate, 1-100 Hz (default 100)"},
    {"kernel-callstack", 0, K::Flag, G::Cpu, "", 0, 0, "", "sample kernel call stacks (ftrace)"},
    {"sampling-frequency", 0, K::Int, G::Cpu, "HZ", 1, 10000, "",
     "CPU sampling frequency up to 10 kHz where the kernel allows (nsys)"},
    {"sample-period", 0, K::Int, G::Cpu, "EVENTS", 1, 1000000000, "",
     "sample every EVENTS events instead of at a frequency (asys)"},
    {"backtrace", 'b', K::Enum, G::Cpu, "fp|dwarf|none", 0, 0, "fp|dwarf|none",
     "how CPU samples get call stacks (default fp)"},
    {"sample-backtrace-depth", 0, K::Int, G::Cpu, "N", 1, 127, "",
     "frames per sampled call stack (default 24)"},
    {"osrt-threshold", 0, K::Int, G::Cpu, "NS", 0, 1000000000000, "",
     "OS runtime calls shorter than NS are not recorded (default 1000)"},
    {"osrt-backtrace-threshold", 0, K::Int, G::Cpu, "NS", 0, 1000000000000, "",
     "OS runtime calls longer than NS carry a call stack (default 80000)"},
    {"osrt-backtrace-depth", 0, K::Int, G::Cpu, "N", 1, 127, "",
     "frames per OS runtime call stack (default 24)"},
    {"nic-metrics", 0, K::Enum, G::Cpu, "true|false", 0, 0, "true|false",
     "sample NIC and RDMA counters (asys)"},
    {"nic-device-include", 0, K::Text, G::Cpu, "REGEX,...", 0, 0, "",
     "keep NICs whose name matches one of the regexes"},
    {"nic-metrics-frequency", 0, K::Int, G::Cpu, "HZ", 1, 100000, "",
     "NIC sampling frequency (default 1000)"},
    {"sample", 's', K::Enum, G::Cpu, "SCOPE", 0, 0, "process-tree|system-wide|none",
     "CPU sampling scope (asys -s); system-wide needs no application"},
    {"memory-profile", 0, K::Optional, G::Cpu, "[=events]", 0, 0, "events",
     "account every heap allocation of each process: heap in use, peak, leaks, by call site and "
     "sampled call stack; events: also each allocation and free on the timeline (plugin memory); "
     "with -t torch also PyTorch's tensor memory, per operator"},
    {"python-sampling", 0, K::Enum, G::Cpu, "true|false", 0, 0, "true|false",
     "Python frames in CPU samples of Python processes (nsys; default: on with CPU call "
     "stacks)"},
    {"python-sampling-frequency", 0, K::Int, G::Cpu, "HZ", 1, 10000, "",
     "Python samples per second of each thread's CPU time (nsys; default: the CPU sampling "
     "rate)"},
    {"python-functions-trace", 0, K::Text, G::Cpu, "pytorch|FILE[,...]", 0, 0, "",
     "each call of the listed Python functions is an annotation range (nsys): pytorch (module "
     "forward calls, optimizer steps, DataLoader, torch.distributed collectives) or a JSON "
     "list of functions"},
    {"python-functions-threshold", 0, K::Int, G::Cpu, "NS", 0, 3600000000000LL, "",
     "leave out traced Python calls shorter than NS nanoseconds (asys; default 0: all)"},
    {"pytorch", 0, K::Enum, G::Cpu, "MODE", 0, 0,
     "autograd-nvtx|autograd-shapes-nvtx|functions-trace|functions-trace-shapes|none",
     "PyTorch from the inside (nsys; plugin torch): autograd-nvtx (operators with autograd "
     "flows, steps, process-group collectives), autograd-shapes-nvtx (and input shapes), "
     "functions-trace[-shapes] (and --python-functions-trace pytorch's module ranges), none"},
    {"python-backtrace", 0, K::Enum, G::Cpu, "true|false", 0, 0, "true|false",
     "Python frames in the OS runtime call stacks of Python processes (default true)"},
    // 2.3 print
    {"print-gcu-summary", 0, K::Flag, G::Print, "", 0, 0, "", "print a summary of GCU data"},
    {"print-gcu-trace", 0, K::Flag, G::Print, "", 0, 0, "", "print GCU data in time order"},
    {"print-summary", 0, K::Flag, G::Print, "", 0, 0, "",
     "print a summary of all data (the default report)"},
    {"print-summary-per-gcu", 0, K::Flag, G::Print, "", 0, 0, "", "print a summary per device"},
    {"print-api-summary", 0, K::Flag, G::Print, "", 0, 0, "", "print a summary of API calls"},
    {"print-trace", 0, K::Flag, G::Print, "", 0, 0, "", "print all data in time order"},
    {"quiet", 0, K::Flag, G::Print, "", 0, 0, "",
     "print nothing, and hide the application's output unless --print-app-log"},
    {"print-app-log", 0, K::Flag, G::Print, "", 0, 0, "",
     "show the application's output, also with --quiet"},
    {"show-output", 'w', K::Enum, G::Print, "true|false", 0, 0, "true|false",
     "show the application's output (asys -w; default true, false with --quiet)"},
    // 2.4 input/output
    {"export-profile", 0, K::Text, G::InputOutput, "FILE", 0, 0, "", "write the report (.profrep)"},
    {"output", 'o', K::Text, G::InputOutput, "NAME", 0, 0, "",
     "report name; .profrep is added without an extension (asys -o)"},
    {"export-visual-profiler", 0, K::Text, G::InputOutput, "DIR", 0, 0, "",
     "write a trace for a visual profiler (Perfetto)"},
    {"import-profile", 0, K::Text, G::InputOutput, "FILE", 0, 0, "",
     "read a saved report instead of capturing"},
    {"export-rawdata", 0, K::Text, G::InputOutput, "FILE", 0, 0, "",
     "write every collected event, undigested, to FILE: the native report (.profrep), "
     "read back with --import-rawdata"},
    {"import-rawdata", 0, K::Text, G::InputOutput, "FILE", 0, 0, "", "read saved raw data"},
    {"export-csv", 0, K::Text, G::InputOutput, "FILE", 0, 0, "", "write the results as CSV"},
    {"visual-profiler-merge-from", 0, K::Text, G::InputOutput, "DIR", 0, 0, "",
     "merge every trace file in DIR (with --visual-profiler-merge-to)"},
    {"visual-profiler-merge-to", 0, K::Text, G::InputOutput, "FILE", 0, 0, "",
     "file the merged trace goes to"},
    {"log-file", 0, K::Text, G::InputOutput, "FILE", 0, 0, "", "write all output to FILE"},
    {"force-overwrite", 'f', K::Switch, G::InputOutput, "[true|false]", 0, 0, "true|false",
     "overwrite existing files (asys -f true)"},
    {"config", 0, K::Text, G::InputOutput, "FILE", 0, 0, "", "read a YAML capture profile"},
    {"help", 'h', K::Flag, G::InputOutput, "", 0, 0, "", "print this help"},
    {"version", 'v', K::Flag, G::InputOutput, "", 0, 0, "", "print the version"},
    {"debug", 0, K::Flag, G::InputOutput, "", 0, 0, "", "print debugging information"},
    {"debug-dump", 0, K::Optional, G::InputOutput, "[=DIR]", 0, 0, "",
     "print debugging information; after a capture write its configuration, plugins, "
     "environment and report chunks to DIR (default prof-debug-PID, PID being prof's)"},
    // 2.5 control
    {"session", 0, K::Name, G::Control, "NAME", 0, 0, "", "the existing session to act on"},
    {"session-new", 0, K::Name, G::Control, "NAME", 0, 0, "",
     "name of the session this capture creates (default the pid)"},
    {"session-list", 0, K::Flag, G::Control, "", 0, 0, "", "list the sessions"},
    {"start", 0, K::Flag, G::Control, "", 0, 0, "", "start capturing in a session"},
    {"stop", 0, K::Flag, G::Control, "", 0, 0, "", "stop capturing in a session"},
    {"dump", 0, K::Flag, G::Control, "", 0, 0, "",
     "write what a session's flight recorder holds as a report"},
    {"suspend", 0, K::Flag, G::Control, "", 0, 0, "", "suspend capturing in a session"},
    {"resume", 0, K::Flag, G::Control, "", 0, 0, "", "resume capturing in a session"},
    {"cancel", 0, K::Flag, G::Control, "", 0, 0, "", "cancel a session's capture"},
    {"shutdown", 0, K::Flag, G::Control, "", 0, 0, "",
     "stop a session's capture and its application (see --kill)"},
    {"delay", 'y', K::Text, G::Control, "SECONDS", 0, 0, "",
     "start collecting SECONDS after launch (asys -y)"},
    {"duration", 'd', K::Text, G::Control, "SECONDS", 0, 0, "",
     "collect for SECONDS, then stop the application unless --kill none (asys -d)"},
    {"kill", 0, K::Text, G::Control, "SIGNAL", 0, 0, "",
     "what ends the application after --duration or on shutdown: sigterm (default), "
     "sigkill, a number, or none"},
    {"capture-range", 'c', K::Enum, G::Control, "RANGE", 0, 0,
     "none|profiler-api|annotation|nvtx|hgtx|cudaProfilerApi|hggcProfilerApi",
     "collect only between prof_start()/prof_stop() (profiler-api) or inside an NVTX range "
     "(annotation; nvtx and hgtx are nsys's and asys's spellings)"},
    {"annotation-capture", 'p', K::Text, G::Control, "NAME[@DOMAIN]", 0, 0, "",
     "the annotation range --capture-range annotation waits for (@* any domain)"},
    {"nvtx-capture", 0, K::Text, G::Control, "NAME[@DOMAIN]", 0, 0, "",
     "nsys's spelling of --annotation-capture"},
    {"hgtx-capture", 0, K::Text, G::Control, "NAME[@DOMAIN]", 0, 0, "",
     "asys's spelling of --annotation-capture"},
    {"capture-steps", 0, K::Int, G::Control, "K", 1, 100000, "",
     "collect K steps marked with prof_step() or prof.step(): the same steps in every process"},
    {"at-step", 0, K::Int, G::Control, "S", 1, 1000000000, "",
     "with --capture-steps: begin at step S (default: the next step every process begins)"},
    {"capture-range-end", 0, K::Text, G::Control, "MODE", 0, 0, "",
     "after a range: stop, stop-shutdown (default), repeat[:N], repeat-shutdown:N"},
    {"flight-recorder", 0, K::Text, G::Control, "SIZE|SECONDS", 0, 0, "",
     "keep only the latest events in memory (e.g. 64M, or 30 for seconds); reports are written "
     "by prof dump, --hang-timeout or an abnormal end"},
    {"step-marker", 0, K::Text, G::Control, "NAME[@DOMAIN]", 0, 0, "",
     "each end of the annotation range NAME (NVTX, prof_capture_range_end) ends a step, as "
     "prof_step() does"},
    {"hang-timeout", 0, K::Text, G::Control, "SECONDS", 0, 0, "",
     "with --flight-recorder: dump when a process marked steps and made none for SECONDS"},
    {"trace-rotation", 0, K::Int, G::Control, "N", 1, 100000, "",
     "with --duration: a new report every duration, the newest N kept"},
    {"dynamic", 0, K::Enum, G::Control, "on|off", 0, 0, "on|off",
     "interactive mode: a (prof) prompt reads start, stop, status, quit (msprof)"},
    {"dynamic-timeout", 0, K::Int, G::Control, "SECONDS", 1, 86400, "",
     "leave interactive mode without a start within SECONDS (default 1800)"},
    {"pid", 0, K::Text, G::Control, "PID[,PID...]", 0, 0, "",
     "attach to running processes instead of launching one (see prof attach)"},
    {"all", 0, K::Flag, G::Control, "", 0, 0, "",
     "prof attach: every process of this user waiting for prof (PROF_MODE=dynamic)"},
    {"match", 0, K::Text, G::Control, "REGEX", 0, 0, "",
     "with --all: only the processes whose command line matches REGEX"},
    {"trigger-dir", 0, K::Text, G::Control, "DIR", 0, 0, "",
     "with --all: only the processes watching DIR (PROF_TRIGGER_DIR); prof trigger: where the "
     "request goes"},
    {"env-var", 'e', K::Text, G::Control, "KEY=VAL,...", 0, 0, "",
     "set environment variables for the application (asys -e)"},
    {"inherit-environment", 'n', K::Enum, G::Control, "true|false", 0, 0, "true|false",
     "false: the application gets only -e's variables (asys -n)"},
    {"wait", 0, K::Enum, G::Control, "primary|all", 0, 0, "primary|all",
     "end the capture when the launched process exits, or all its descendants (default)"},
    // 2.6 plugins
    {"plugin", 0, K::Repeatable, G::Plugin, "\"NAME ARGS\"", 0, 0, "",
     "use plugin NAME with key=value ARGS; \"NAME help\" lists its options"},
    {"plugin-list", 0, K::Flag, G::Plugin, "", 0, 0, "", "list the installed plugins"},
    {"plugin-path", 0, K::Repeatable, G::Plugin, "DIR", 0, 0, "", "also load plugins from DIR"},
    {"trace", 't', K::List, G::Plugin, "ITEMS", 0, 0, "",
     "asys/nsys trace items: gcu, osrt, nvtx|hgtx, cuda|hggc, pccl|nccl, mpi, torch, or a source "
     "plugin's name; none for no tracing"},
    {"gpu-metrics-frequency", 0, K::Int, G::Plugin, "HZ", 1, 1000, "",
     "sample NVIDIA GPU metrics through NVML (utilization, memory, SM clock, power, "
     "temperature) at HZ, 1-1000 (plugin cuda)"},
    {"cuda-memory-usage", 0, K::Enum, G::Plugin, "true|false", 0, 0, "true|false",
     "record CUDA allocations and memory used per device (default true)"},
    {"cuda-graph-trace", 0, K::Enum, G::Plugin, "node|graph", 0, 0, "node|graph",
     "show a CUDA graph launch as its nodes' work (default) or as one slice"},
    // 2.7 advanced
    {"reset", 0, K::Flag, G::Advanced, "", 0, 0, "", "reset prof's saved state"},
    {"buffer", 0, K::Enum, G::Advanced, "device|host", 0, 0, "device|host",
     "where device data is buffered (default device)"},
    {"device-buffer-size", 0, K::Int, G::Advanced, "MB", 1, 64, "",
     "device buffer size, 1-64 MB (default 64; cuda: 8)"},
    {"host-buffer-size", 0, K::Int, G::Advanced, "MB", 1, 1024, "",
     "host buffer size, 1-1024 MB (default 1024)"},
    {"host-ringbuffer-size", 0, K::Int, G::Advanced, "MB", 2, 64, "",
     "host ring buffer size, 2-64 MB (default 16; cuda: 64)"},
    {"watermark-threshold", 0, K::Int, G::Advanced, "MB", 1, 63, "",
     "drain a ring at this fill, 1 to host-ringbuffer-size - 1 MB (default 15; cuda: 2)"},
};

struct Spelling {
  std::string_view option, value; // value empty: the option itself
  std::string_view means;
};
// Other tools' spellings of prof's options and values.
constexpr Spelling kSpellings[] = {
    {"nvtx-capture", "", "annotation-capture"},
    {"hgtx-capture", "", "annotation-capture"},
    {"capture-range", "nvtx", "annotation"},
    {"capture-range", "hgtx", "annotation"},
    {"capture-range", "cudaProfilerApi", "profiler-api"},
    {"capture-range", "hggcProfilerApi", "profiler-api"},
};

} // namespace

std::string_view canonical_option(std::string_view name) {
  for (const Spelling &s : kSpellings)
    if (s.option == name && s.value.empty()) return s.means;
  return name;
}

std::string_view canonical_value(std::string_view option, std::string_view value) {
  for (const Spelling &s : kSpellings)
    if (s.option == option && !s.value.empty() && s.value == value) return s.means;
  return value;
}

std::span<const OptionSpec> option_specs() { return kOptions; }

const OptionSpec *find_option(std::string_view name) {
  for (const auto &spec : kOptions)
    if (spec.name == name) return &spec;
  return nullptr;
}

const OptionSpec *find_short_option(char letter) {
  for (const auto &spec : kOptions)
    if (spec.short_name != 0 && spec.short_name == letter) return &spec;
  return nullptr;
}

std::string_view group_title(OptionGroup group) {
  switch (group) {
  case G::Gcu:
    return "GCU capture options";
  case G::Cpu:
    return "CPU capture options";
  case G::Print:
    return "Print options";
  case G::InputOutput:
    return "Input/output options";
  case G::Control:
    return "Control options";
  case G::Plugin:
    return "Plugin options";
  case G::Advanced:
    return "Advanced options";
  }
  return "";
}

} // namespace prof::cli
