// The torch source end to end, on each PyTorch the suite has (Debian's
// python3-torch 1.13, and the PyTorch 2.x wheel tools/setup puts in its
// virtual environment), from the same prof build: a DDP training loop on 4
// gloo ranks, each rank under `prof -t torch`, one rank made late at one step. Each report holds
// the operators with the backward pass tied to the forward, the steps, and the gradient all-reduces
// (buckets times steps); over the ranks' reports, the stragglers report names the late rank and
// that step's all-reduces, and that step's critical path goes through the late rank.
#include "core/report/report_reader.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/waiting_process.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
const fs::path kPrograms = PROF_TORCH_PROGRAMS;

constexpr int kRanks = 4, kSteps = 6, kLateRank = 2, kLateStep = 4;
constexpr double kDelaySeconds = 0.4;

struct Slice {
  std::string name, category;
  int pid = 0;
  uint32_t track = 0;
  uint64_t begin = 0, duration = 0;
  uint16_t kind = 0;
  std::map<std::string, std::string> args;
};
struct Flow {
  uint32_t track = 0;
  uint64_t ts = 0, id = 0;
  uint8_t phase = 0;
};
struct Report {
  std::vector<Slice> slices;
  std::vector<Flow> flows;
  std::vector<const Slice *> named(const std::string &name) const {
    std::vector<const Slice *> found;
    for (const Slice &s : slices)
      if (s.name == name) found.push_back(&s);
    return found;
  }
};

std::string arg_text(const report::ReportReader &reader, const prof_arg &a) {
  switch (a.type) {
  case PROF_ARG_INT:
    return std::to_string(a.value.i);
  case PROF_ARG_UINT:
    return std::to_string(a.value.u);
  case PROF_ARG_STRING:
    return std::string(reader.string(a.value.s));
  default:
    return "?";
  }
}

Report read_report(const fs::path &path) {
  Report out;
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(path.string())) << path;
  for (const prof_event &e : reader.read_all_events()) {
    if (e.type == PROF_EVENT_FLOW) {
      out.flows.push_back({e.track, e.ts, e.id, e.flags});
      continue;
    }
    if (e.type != PROF_EVENT_SLICE) continue;
    const report::TrackRecord *track = reader.track(e.track);
    Slice s{std::string(reader.string(e.name)),
            std::string(reader.string(e.category)),
            track ? track->pid : 0,
            e.track,
            e.ts,
            e.duration,
            e.kind,
            {}};
    if (e.args != 0)
      if (const auto args = reader.args().find(static_cast<uint32_t>(e.args)))
        for (const prof_arg &a : *args)
          s.args[std::string(reader.string(a.key))] = arg_text(reader, a);
    out.slices.push_back(std::move(s));
  }
  return out;
}

/// A Python with a PyTorch, and the ports its tests' ranks meet on.
struct TorchPython {
  std::string name, interpreter;
  int port_offset = 0;
};
std::ostream &operator<<(std::ostream &out, const TorchPython &python) {
  return out << python.name << " (" << python.interpreter << ")";
}

std::vector<TorchPython> torch_pythons() {
  std::vector<TorchPython> pythons = {{"debian_torch_1_13", PROF_SYSTEM_PYTHON3, 0}};
#ifdef PROF_TORCH2_PYTHON
  pythons.push_back({"pip_torch_2", PROF_TORCH2_PYTHON, 100});
#endif
  return pythons;
}

class TorchE2E : public ::testing::TestWithParam<TorchPython> {
protected:
  const std::string &python() const { return GetParam().interpreter; }
  int port(int base) const { return base + GetParam().port_offset; }

  /// Runs the 4 ranks, each under prof with `options` (without prof when
  /// `options` is empty; `env` adds variables); their outputs by rank.
  std::vector<RunResult> run_ranks(const std::vector<std::string> &options, int port,
                                   const std::vector<std::string> &env = {}) {
    std::vector<std::future<RunResult>> ranks;
    for (int rank = 0; rank < kRanks; ++rank) {
      std::vector<std::string> argv = {"/usr/bin/env",
                                       "RANK=" + std::to_string(rank),
                                       "WORLD_SIZE=" + std::to_string(kRanks),
                                       "MASTER_ADDR=127.0.0.1",
                                       "MASTER_PORT=" + std::to_string(port),
                                       "OMP_NUM_THREADS=1"};
      argv.insert(argv.end(), env.begin(), env.end());
      if (!options.empty()) {
        argv.insert(argv.end(),
                    {kProf, "--quiet", "--print-app-log", "-o", (dir() / "r%q{RANK}").string()});
        argv.insert(argv.end(), options.begin(), options.end());
      }
      argv.insert(argv.end(), {python(), (kPrograms / "ddp_train.py").string(),
                               std::to_string(kSteps), std::to_string(kLateRank),
                               std::to_string(kLateStep), std::to_string(kDelaySeconds)});
      ranks.push_back(std::async(
          std::launch::async, [argv] { return run_process(argv, {}, std::chrono::seconds(240)); }));
    }
    std::vector<RunResult> results;
    for (auto &rank : ranks)
      results.push_back(rank.get());
    return results;
  }
  /// Makes sure the bridge for this torch is built (a launch builds it if
  /// no earlier run did), so that a capture of a running program records
  /// from its first moment instead of once the bridge is built.
  void warm_bridge() const {
    const RunResult warm = run_process({kProf, "--quiet", "-t", "torch", "-o",
                                        (dir() / "warm").string(), python(), "-c", "import torch"},
                                       {}, std::chrono::seconds(240));
    ASSERT_EQ(warm.exit_code, 0) << warm.describe();
  }
  fs::path dir() const { return scratch_.path(); }
  fs::path report(int rank) const { return dir() / ("r" + std::to_string(rank) + ".profrep"); }

  testing::ScratchDir scratch_{"prof-torch", testing::ScratchDir::Keep::on_failure};
};

/// "buckets FIRST REBUILT" from the program's output: DDP's gradient buckets
/// of step 1 and of the later steps.
std::pair<int, int> buckets(const std::string &out) {
  const size_t at = out.find("buckets ");
  if (at == std::string::npos) return {0, 0};
  std::istringstream words(out.substr(at + 8));
  int first = 0, rebuilt = 0;
  words >> first >> rebuilt;
  return {first, rebuilt};
}

struct LateOperation {
  std::string name, last;
  uint64_t sequence = 0;
  double milliseconds = 0;
};

/// "3.52s", "12.30ms", "900.00us" or "5.00ns" (prof's durations) in ms; -1
/// for other text.
double milliseconds_of(const std::string &text) {
  size_t end = 0;
  double value = 0;
  try {
    value = std::stod(text, &end);
  } catch (const std::exception &) {
    return -1;
  }
  const std::string unit = text.substr(end);
  return unit == "s"    ? value * 1e3
         : unit == "ms" ? value
         : unit == "us" ? value / 1e3
         : unit == "ns" ? value / 1e6
                        : -1;
}

/// The stragglers report's "late: COMM NAME #SEQ: PROCESS last, Xms after
/// the first" notes on communicator `comm` (CSV "# " lines).
std::vector<LateOperation> late_operations(const std::string &csv, const std::string &comm) {
  std::vector<LateOperation> out;
  std::istringstream lines(csv);
  const std::string prefix = "# late: " + comm + " ";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    const size_t hash = line.find(" #", prefix.size());
    const size_t colon = line.find(": ", hash);
    const size_t last = line.find(" last, ", colon);
    const size_t after = line.find(" after the first", last);
    if (hash == std::string::npos || colon == std::string::npos || last == std::string::npos ||
        after == std::string::npos) {
      ADD_FAILURE() << line;
      continue;
    }
    out.push_back({line.substr(prefix.size(), hash - prefix.size()),
                   line.substr(colon + 2, last - colon - 2),
                   std::stoull(line.substr(hash + 2, colon - hash - 2)),
                   milliseconds_of(line.substr(last + 7, after - last - 7))});
  }
  return out;
}

/// The gloo all-reduces some rank came to more than half of kDelaySeconds
/// late. The rank that slept is late by the sleep less what it then computes
/// faster than the others (alone on the cores while they wait), and the
/// others' noise adds lateness too; on 2 loaded cores each stayed under a
/// sixth of the sleep. DDP's collectives at start-up (broadcasts, an
/// all-gather on 2.x) are left out: the ranks' start-ups differ by as much.
std::vector<LateOperation> held_up_operations(const std::string &stragglers_csv) {
  std::vector<LateOperation> held_up;
  for (const LateOperation &op : late_operations(stragglers_csv, "gloo:0"))
    if (op.name == "gloo:all_reduce" && op.milliseconds > 1000 * kDelaySeconds / 2)
      held_up.push_back(op);
  return held_up;
}

/// The line `prof stats` (the critical-path or steps report) gives step
/// `step`'s critical path, "step N: ..." without the CSV's "# "; "" if none.
std::string critical_path_line(const std::string &out, int step) {
  std::istringstream lines(out);
  const std::string prefix = "step " + std::to_string(step) + ": ";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# ", 0) == 0) line = line.substr(2);
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

/// Milliseconds in "...; 388.07ms of it waiting for ...", -1 without.
double waited_ms(const std::string &line) {
  const size_t of = line.find(" of it waiting for ");
  const size_t from = line.rfind("; ", of);
  if (of == std::string::npos || from == std::string::npos) return -1;
  return milliseconds_of(line.substr(from + 2, of - from - 2));
}

TEST_P(TorchE2E, DdpRanksGiveOperatorsStepsAndMatchedCollectives) {
  const std::vector<RunResult> ranks = run_ranks({"-t", "torch"}, port(29630));
  std::pair<int, int> bucket_counts;
  for (int rank = 0; rank < kRanks; ++rank) {
    ASSERT_EQ(ranks[rank].exit_code, 0) << "rank " << rank << ": " << ranks[rank].describe();
    bucket_counts = buckets(ranks[rank].out);
  }
  const auto [first, rebuilt] = bucket_counts;
  ASSERT_GT(first, 0) << ranks[0].out;
  ASSERT_GT(rebuilt, 1) << "the model is meant for several buckets: " << ranks[0].out;
  const int all_reduces = first + rebuilt * (kSteps - 1);

  for (int rank = 0; rank < kRanks; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const Report r = read_report(report(rank));
    // The gradient all-reduces: DDP's buckets each step, from its C++ reducer.
    const auto gloo = r.named("gloo:all_reduce");
    EXPECT_EQ(static_cast<int>(gloo.size()), all_reduces);
    std::set<std::string> sequences;
    for (const Slice *s : gloo) {
      EXPECT_EQ(s->kind, PROF_CATEGORY_COMMUNICATION);
      EXPECT_EQ(s->args.count("communicator") ? s->args.at("communicator") : "", "gloo:0");
      EXPECT_EQ(s->args.count("group ranks") ? s->args.at("group ranks") : "", "0-3");
      EXPECT_EQ(s->args.count("rank") ? s->args.at("rank") : "", std::to_string(rank));
      EXPECT_EQ(s->args.count("dtype") ? s->args.at("dtype") : "", "float");
      EXPECT_GT(std::stoll(s->args.count("bytes") ? s->args.at("bytes") : "0"), 0);
      sequences.insert(s->args.count("sequence") ? s->args.at("sequence") : "");
    }
    EXPECT_EQ(static_cast<int>(sequences.size()), all_reduces) << "one sequence each";

    // Backward nodes, each tied by a flow to the forward operator it differentiates.
    std::map<std::pair<uint32_t, uint64_t>, const Slice *> forward_begins;
    for (const Slice &s : r.slices)
      if (s.kind == PROF_CATEGORY_OPERATOR && s.args.count("pass") &&
          s.args.at("pass") == "forward")
        forward_begins[{s.track, s.begin}] = &s;
    std::map<uint64_t, const Flow *> flow_begins;
    std::map<std::pair<uint32_t, uint64_t>, uint64_t> flow_ends;
    for (const Flow &f : r.flows)
      if (f.phase == PROF_FLOW_BEGIN)
        flow_begins[f.id] = &f;
      else if (f.phase == PROF_FLOW_END)
        flow_ends[{f.track, f.ts}] = f.id;
    int nodes = 0;
    std::set<std::string> differentiated;
    for (const Slice &s : r.slices) {
      // The nodes, not the engine's evaluate_function around each.
      if (s.kind != PROF_CATEGORY_OPERATOR || !s.name.ends_with("Backward0") ||
          s.name.starts_with("autograd::engine::"))
        continue;
      ++nodes;
      EXPECT_EQ(s.args.at("pass"), "backward") << s.name;
      const auto end = flow_ends.find({s.track, s.begin});
      ASSERT_NE(end, flow_ends.end()) << s.name << " has no flow";
      const Flow *begin = flow_begins.at(end->second);
      const auto forward = forward_begins.find({begin->track, begin->ts});
      ASSERT_NE(forward, forward_begins.end()) << s.name << "'s flow starts at no forward operator";
      differentiated.insert(s.name + " <- " + forward->second->name);
    }
    EXPECT_GE(nodes, 7 * kSteps) << "4 AddmmBackward0, 3 ReluBackward0 a step at least";
    EXPECT_TRUE(differentiated.contains("AddmmBackward0 <- aten::addmm"));
    EXPECT_TRUE(differentiated.contains("ReluBackward0 <- aten::relu"));

    // The steps, one per optimizer step.
    std::vector<std::string> steps;
    for (const Slice *s : r.named("step"))
      steps.push_back(s->args.count("step") ? s->args.at("step") : "");
    EXPECT_EQ(steps, (std::vector<std::string>{"1", "2", "3", "4", "5", "6"}));
  }

  // Over the ranks: the late rank came last to the all-reduces of its late step.
  const RunResult stragglers =
      run_process({kProf, "stats", "--report", "stragglers", "--format", "csv", dir().string()});
  ASSERT_EQ(stragglers.exit_code, 0) << stragglers.describe();
  const std::vector<LateOperation> held_up = held_up_operations(stragglers.out);
  ASSERT_EQ(static_cast<int>(held_up.size()), rebuilt) << stragglers.out;
  std::set<uint64_t> late_sequences;
  for (const LateOperation &op : held_up) {
    EXPECT_EQ(op.name, "gloo:all_reduce");
    EXPECT_NE(op.last.find("(rank " + std::to_string(kLateRank) + ")"), std::string::npos)
        << op.last;
    late_sequences.insert(op.sequence);
  }
  // They are that step's: the step's all-reduces, in a row.
  const Report late_rank = read_report(report(kLateRank));
  const Slice *step = nullptr;
  for (const Slice *s : late_rank.named("step"))
    if (s->args.at("step") == std::to_string(kLateStep)) step = s;
  ASSERT_NE(step, nullptr);
  std::set<uint64_t> in_step;
  for (const Slice *s : late_rank.named("gloo:all_reduce"))
    if (s->begin >= step->begin && s->begin < step->begin + step->duration)
      in_step.insert(std::stoull(s->args.at("sequence")));
  EXPECT_EQ(late_sequences, in_step);

  // The late step's critical path crosses to the late rank: it made the
  // others wait about as long as it slept (from half of it, as above, to
  // half as long again on loaded cores), and the steps report says so.
  const RunResult path =
      run_process({kProf, "stats", "--report", "critical-path", "--format", "csv", dir().string()});
  ASSERT_EQ(path.exit_code, 0) << path.describe();
  const std::string line = critical_path_line(path.out, kLateStep);
  EXPECT_NE(line.find("of it waiting for "), std::string::npos) << path.out;
  EXPECT_NE(line.find("(rank " + std::to_string(kLateRank) + ")"), std::string::npos) << line;
  EXPECT_GT(waited_ms(line), 1000 * kDelaySeconds / 2) << line;
  EXPECT_LT(waited_ms(line), 1000 * kDelaySeconds * 1.5) << line;
  const RunResult steps = run_process({kProf, "stats", "--report", "steps", dir().string()});
  ASSERT_EQ(steps.exit_code, 0) << steps.describe();
  EXPECT_EQ(critical_path_line(steps.out, kLateStep), line) << steps.out;

  // Each rank's all-reduces, counted per communicator and rank.
  const RunResult collectives =
      run_process({kProf, "stats", "--report", "collectives", "--format", "csv", dir().string()});
  ASSERT_EQ(collectives.exit_code, 0) << collectives.describe();
  int rows = 0;
  std::istringstream lines(collectives.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("gloo:0,gloo:all_reduce,", 0) == 0) {
      ++rows;
      EXPECT_NE(line.find("," + std::to_string(all_reduces) + ","), std::string::npos) << line;
    }
  EXPECT_EQ(rows, kRanks) << collectives.out;
}

// The same program profiled by torch.profiler instead (the legacy profiler
// of Debian's torch), its traces imported: the same verdict.
TEST_P(TorchE2E, ImportedTorchProfilerTracesGiveTheSameStragglerVerdict) {
  const fs::path traces = dir() / "traces";
  fs::create_directories(traces);
  const std::vector<RunResult> ranks =
      run_ranks({}, port(29650), {"TORCH_PROFILER_TRACES=" + traces.string()});
  for (int rank = 0; rank < kRanks; ++rank)
    ASSERT_EQ(ranks[rank].exit_code, 0) << "rank " << rank << ": " << ranks[rank].describe();
  const int rebuilt = buckets(ranks[0].out).second;
  std::vector<std::string> import = {kProf, "import", "-o", (dir() / "imported").string()};
  for (int rank = 0; rank < kRanks; ++rank)
    import.push_back((traces / ("r" + std::to_string(rank) + ".json")).string());
  const RunResult imported = run_process(import);
  ASSERT_EQ(imported.exit_code, 0) << imported.describe();
  const RunResult stragglers = run_process(
      {kProf, "stats", "--report", "stragglers", "--format", "csv", (dir() / "imported").string()});
  ASSERT_EQ(stragglers.exit_code, 0) << stragglers.describe();
  const std::vector<LateOperation> held_up = held_up_operations(stragglers.out);
  // The late step's gradient all-reduces, each with the late rank last.
  ASSERT_EQ(static_cast<int>(held_up.size()), rebuilt) << stragglers.out;
  for (const LateOperation &op : held_up) {
    EXPECT_EQ(op.name, "gloo:all_reduce");
    EXPECT_NE(op.last.find("(rank " + std::to_string(kLateRank) + ")"), std::string::npos)
        << op.last;
  }
  // Debian's legacy traces have no wall clock: their ranks are placed on one
  // timeline by their collective operations, and the report says so.
  if (GetParam().name == "debian_torch_1_13")
    EXPECT_THAT(stragglers.out,
                ::testing::HasSubstr("# clocks: " + std::to_string(kRanks - 1) +
                                     " reports had no clock shared with the others and were "
                                     "aligned on their collective operations"));
}

/// Each row's calls of a CSV report, by "COMMUNICATOR,NAME" and rank.
std::map<std::string, std::map<int, int>> collective_calls(const std::string &csv) {
  std::map<std::string, std::map<int, int>> calls;
  const std::regex row(R"rx(^([^,]+,[^,]+),[^,]*\(rank (\d+)\)[^,]*,(\d+),)rx");
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);)
    if (std::smatch m; std::regex_search(line, m, row))
      calls[m[1]][std::stoi(m[2])] = std::stoi(m[3]);
  return calls;
}

// prof and torch.profiler in the same run: prof's collectives report counts
// each rank's gradient all-reduces as torch.profiler counts them (DDP's
// start-up collectives, before torch.profiler opens, are broadcasts and an
// all-gather).
TEST_P(TorchE2E, CollectivesAreCountedAsTorchProfilerCountsThem) {
  const std::vector<RunResult> ranks =
      run_ranks({"-t", "torch"}, port(29670), {"TORCH_PROFILER_COUNTS=1"});
  std::map<int, std::map<std::string, int>> torch_counts;
  for (int rank = 0; rank < kRanks; ++rank) {
    ASSERT_EQ(ranks[rank].exit_code, 0) << "rank " << rank << ": " << ranks[rank].describe();
    const std::regex counted(R"rx(torch.profiler (\S+) (\d+))rx");
    for (std::sregex_iterator it(ranks[rank].out.begin(), ranks[rank].out.end(), counted), end;
         it != end; ++it)
      torch_counts[rank][(*it)[1]] = std::stoi((*it)[2]);
  }
  const int all_reduces = torch_counts[0]["gloo:all_reduce"];
  ASSERT_GT(all_reduces, kSteps) << ranks[0].out;
  const RunResult collectives =
      run_process({kProf, "stats", "--report", "collectives", "--format", "csv", dir().string()});
  ASSERT_EQ(collectives.exit_code, 0) << collectives.describe();
  const auto calls = collective_calls(collectives.out);
  ASSERT_TRUE(calls.count("gloo:0,gloo:all_reduce")) << collectives.out;
  for (int rank = 0; rank < kRanks; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    EXPECT_EQ(calls.at("gloo:0,gloo:all_reduce").at(rank), torch_counts[rank]["gloo:all_reduce"]);
  }
}

// nsys's --pytorch: shapes on operators, and the function trace's module ranges.
TEST_P(TorchE2E, PytorchOptionAddsShapesAndModuleRanges) {
  const std::vector<RunResult> ranks = run_ranks({"--pytorch=functions-trace-shapes"}, port(29640));
  for (int rank = 0; rank < kRanks; ++rank)
    ASSERT_EQ(ranks[rank].exit_code, 0) << "rank " << rank << ": " << ranks[rank].describe();
  const Report r = read_report(report(0));
  const auto addmm = r.named("aten::addmm");
  ASSERT_FALSE(addmm.empty());
  EXPECT_EQ(addmm.front()->args.at("input shapes"), "[[512], [16, 512], [512, 512], [], []]");
  EXPECT_EQ(addmm.front()->args.at("input types"), "[float, float, float, Scalar, Scalar]");
  EXPECT_FALSE(r.named("Linear.forward").empty());
}

// DataLoader's worker processes (forked) record their operators too.
TEST_P(TorchE2E, DataLoaderWorkersAreRecordedToo) {
  const RunResult r =
      run_process({kProf, "--quiet", "--print-app-log", "-t", "torch", "-o",
                   (dir() / "loader").string(), python(), (kPrograms / "data_loader.py").string()},
                  {}, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.out, "batches done\n");
  std::map<int, int> randn_by_process;
  const Report report = read_report(dir() / "loader.profrep");
  for (const Slice *s : report.named("aten::randn"))
    ++randn_by_process[s->pid];
  // 64 samples made by two workers, none by the main process.
  ASSERT_EQ(randn_by_process.size(), 2u);
  int randn = 0;
  for (const auto &[pid, calls] : randn_by_process) {
    EXPECT_GT(calls, 0) << pid;
    randn += calls;
  }
  EXPECT_EQ(randn, 64);
}

// prof attached to a program that imported torch long before: the torch
// source starts in its running interpreter.
TEST_P(TorchE2E, AttachingToARunningProgramRecordsItsOperators) {
  warm_bridge();
  const fs::path pid_file = dir() / "pid", stop_file = dir() / "stop";
  auto app = std::async(std::launch::async, [&] {
    return run_process({"/usr/bin/env", "PROF_MODE=dynamic", "LD_PRELOAD=" + kAgent, python(),
                        (kPrograms / "waits_for_attach.py").string(), pid_file.string(),
                        stop_file.string()},
                       {}, std::chrono::seconds(150));
  });
  // The program runs until told to stop: however loaded the machine, it is there to attach to.
  while (!fs::exists(pid_file) &&
         app.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
  }
  ASSERT_TRUE(fs::exists(pid_file)) << app.get().describe();
  std::string pid;
  std::ifstream(pid_file) >> pid;
  std::this_thread::sleep_for(std::chrono::milliseconds(500)); // the agent listens
  const RunResult attach = run_process(
      {kProf, "attach", "-t", "torch", "--duration", "1.5", "-o", (dir() / "a").string(), pid});
  std::ofstream(stop_file).put('\n');
  const RunResult program = app.get();
  ASSERT_EQ(attach.exit_code, 0) << attach.describe();
  EXPECT_EQ(program.exit_code, 0) << program.describe();
  EXPECT_EQ(program.out, "done\n");
  const Report report = read_report(dir() / "a.profrep");
  EXPECT_GT(report.named("aten::mm").size(), 10u);
  EXPECT_GT(report.named("aten::tanh").size(), 10u);
}

/// Whether `path` holds `text`, looking again for up to `seconds`.
bool wait_for_text(const fs::path &path, const std::string &text, int seconds) {
  for (int tenths = 0;; ++tenths) {
    std::ifstream in(path);
    const std::string held((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (held.find(text) != std::string::npos) return true;
    if (tenths >= seconds * 10) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

/// What a step-aligned capture of one rank holds: its step numbers (the
/// program's prof.step() marks) and its gloo all-reduces' sequences.
struct RankCapture {
  std::set<uint64_t> steps, all_reduces;
  std::set<std::string> step_categories;
};
RankCapture rank_capture(const fs::path &path) {
  RankCapture out;
  for (const Slice &s : read_report(path).slices) {
    if (s.name == "step" && s.args.count("step")) {
      out.steps.insert(std::stoull(s.args.at("step")));
      out.step_categories.insert(s.category);
    }
    if (s.name == "gloo:all_reduce") out.all_reduces.insert(std::stoull(s.args.at("sequence")));
  }
  return out;
}

// Two DDP ranks started with the agent waiting, marking steps with
// prof.step(): captured hundreds of steps in, by `prof start --all` and by a
// trigger-folder request, each rank's report holds the same 3 steps and the
// same gradient all-reduces (PyTorch's own per-group count, whenever prof
// attached), and the straggler report works over them.
TEST_P(TorchE2E, RanksStartedWaitingAreCapturedAtTheSameStepsWithMatchingCollectives) {
  warm_bridge();
  const fs::path runtime = dir() / "runtime", triggers = dir() / "triggers";
  fs::create_directories(runtime);
  fs::create_directories(triggers);
  const std::string runtime_variable = "XDG_RUNTIME_DIR=" + runtime.string();
  std::vector<std::unique_ptr<Background>> ranks;
  for (int rank = 0; rank < 2; ++rank)
    ranks.push_back(start_waiting(
        {python(), (kPrograms / "ddp_steps.py").string(), (dir() / "stop").string()}, dir(),
        {runtime_variable, "RANK=" + std::to_string(rank), "WORLD_SIZE=2", "MASTER_ADDR=127.0.0.1",
         "MASTER_PORT=" + std::to_string(port(29641)), "OMP_NUM_THREADS=1",
         "PROF_TRIGGER_DIR=" + triggers.string()},
        "rank" + std::to_string(rank)));
  for (int rank = 0; rank < 2; ++rank)
    ASSERT_TRUE(wait_for_text(dir() / ("rank" + std::to_string(rank) + ".out"), "step 100", 180))
        << ranks[rank]->output();

  const auto check_captures = [&](const std::string &prefix) {
    std::vector<RankCapture> captures;
    for (int rank = 0; rank < 2; ++rank)
      captures.push_back(rank_capture(dir() / (prefix + std::to_string(rank) + ".profrep")));
    for (const RankCapture &capture : captures) {
      EXPECT_EQ(capture.steps.size(), 3u) << prefix;
      EXPECT_EQ(capture.step_categories, std::set<std::string>{"prof/step"}) << prefix;
      EXPECT_GE(capture.all_reduces.size(), 3u) << prefix;
      // Counted by PyTorch from the group's making: past the first 100 steps.
      EXPECT_GT(capture.all_reduces.empty() ? 0 : *capture.all_reduces.begin(), 100u) << prefix;
    }
    EXPECT_EQ(captures[0].steps, captures[1].steps) << prefix;
    EXPECT_EQ(captures[0].all_reduces, captures[1].all_reduces) << prefix;
    EXPECT_GT(captures[0].steps.empty() ? 0 : *captures[0].steps.begin(), 100u) << prefix;
  };

  const RunResult started = run_process(
      {"/usr/bin/env", runtime_variable, kProf, "start", "--all", "--match", "ddp_steps", "--trace",
       "torch", "--capture-steps", "3", "-o", (dir() / "s%q{RANK}").string()},
      dir(), std::chrono::seconds(120));
  ASSERT_EQ(started.exit_code, 0) << started.describe();
  check_captures("s");

  const RunResult asked = run_process(
      {"/usr/bin/env", runtime_variable, kProf, "trigger", "--trigger-dir", triggers.string(),
       "--trace", "torch", "--capture-steps", "3", "-o", (dir() / "t%q{RANK}").string()},
      dir(), std::chrono::seconds(60));
  ASSERT_EQ(asked.exit_code, 0) << asked.describe();
  // The agent that claimed the request started prof; its console says when it is done.
  bool detached = false;
  for (int i = 0; i < 1200 && !detached; ++i) {
    if (fs::exists(runtime / "prof"))
      for (const auto &entry : fs::directory_iterator(runtime / "prof")) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("trigger-") && name.ends_with(".log") &&
            wait_for_text(entry.path(), "prof detached", 0))
          detached = true;
      }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(detached) << asked.describe();
  check_captures("t");

  const RunResult stragglers =
      run_process({kProf, "stats", "--report", "stragglers", (dir() / "s0.profrep").string(),
                   (dir() / "s1.profrep").string()});
  ASSERT_EQ(stragglers.exit_code, 0) << stragglers.describe();
  EXPECT_NE(stragglers.out.find("Stragglers (gloo:0)"), std::string::npos) << stragglers.out;

  std::ofstream(dir() / "stop").put('\n');
  for (auto &rank : ranks)
    EXPECT_EQ(rank->wait(std::chrono::seconds(60)), 0) << rank->output();
}

// A hung torch job under the flight recorder: rank 1 stops between steps,
// rank 0 waits in that step's gradient all-reduce. --hang-timeout dumps
// each rank (for its missing steps, or rank 0 for its wait), and the
// hang report names the all-reduce rank 0 waits in and rank 1 as the one
// it waits for.
TEST_P(TorchE2E, HangReportNamesTheRankTheOtherWaitsForInAGradientAllReduce) {
  const fs::path stop = dir() / "stop", stall = dir() / "stall";
  std::vector<std::unique_ptr<Background>> ranks;
  for (int rank = 0; rank < 2; ++rank)
    ranks.push_back(std::make_unique<Background>(
        std::vector<std::string>{
            kProf, "--trace", "torch", "--flight-recorder", "16M", "--hang-timeout", "3", "-o",
            (dir() / ("h" + std::to_string(rank))).string(), python(),
            (kPrograms / "ddp_steps.py").string(), stop.string(), "120", stall.string()},
        dir(),
        std::vector<std::string>{"RANK=" + std::to_string(rank), "WORLD_SIZE=2",
                                 "MASTER_ADDR=127.0.0.1",
                                 "MASTER_PORT=" + std::to_string(port(29643)), "OMP_NUM_THREADS=1"},
        "rank" + std::to_string(rank)));
  ASSERT_TRUE(wait_for_text(dir() / "rank0.out", "step 20", 180)) << ranks[0]->output();
  std::ofstream(stall).put('\n');
  ASSERT_TRUE(wait_for_text(dir() / "rank1.out", "stalls in step", 60)) << ranks[1]->output();
  for (int rank = 0; rank < 2; ++rank)
    EXPECT_TRUE(wait_for_text(dir() / ("rank" + std::to_string(rank) + ".out"),
                              "flight recorder dumped", 15))
        << ranks[rank]->output();
  std::ofstream(stop).put('\n');
  for (auto &rank : ranks)
    EXPECT_EQ(rank->wait(std::chrono::seconds(60)), 0) << rank->output();

  const RunResult hang =
      run_process({kProf, "stats", "--report", "hang", "--format", "csv",
                   (dir() / "h0.profrep").string(), (dir() / "h1.profrep").string()});
  ASSERT_EQ(hang.exit_code, 0) << hang.describe();
  EXPECT_NE(hang.out.find("gloo:0: 1 of 2 ranks wait in gloo:all_reduce #"), std::string::npos)
      << hang.out;
  EXPECT_NE(hang.out.find("(rank 1)"), std::string::npos) << hang.out;
}

// With --memory-profile, the tensor memory each operator kept, exactly as
// PyTorch's own profiler (profile_memory=True, run around the same calls)
// counts it, and every block on the timeline.
TEST_P(TorchE2E, MemoryProfileGivesEachOperatorsMemoryAsTorchCountsIt) {
  const RunResult r = run_process({kProf, "--quiet", "--print-app-log", "-t", "torch",
                                   "--memory-profile", "-o", (dir() / "memory").string(), python(),
                                   (kPrograms / "tensor_memory.py").string()},
                                  {}, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  // torch's figures: {"aten::mm": [10, 122880, 122880], ...}. Calls are
  // compared where an operator allocates: torch's event tree now and then
  // drops one of the 30 instantaneous aten::resolve_conj calls. Self memory
  // apart: torch places a block by its microsecond timestamp, so one its
  // child allocated in the microsecond the child began may count in the
  // parent's self too.
  std::map<std::string, std::string> torch_rows;
  std::map<std::string, int64_t> torch_self;
  const std::regex torch_row(R"rx("([^"]+)": \[(-?\d+), (-?\d+), (-?\d+)\])rx");
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), torch_row), end; it != end; ++it)
    if ((*it)[1] != "[memory]") { // blocks freed outside any operator
      torch_rows[(*it)[1]] = ((*it)[3] == "0" ? "" : (*it)[2].str()) + "," + (*it)[3].str();
      torch_self[(*it)[1]] = std::stoll((*it)[4]);
    }
  ASSERT_GE(torch_rows.size(), 8u) << r.out;
  EXPECT_EQ(torch_rows.at("aten::mm"), "10,122880");

  const RunResult ops = run_process({kProf, "stats", "--report", "torch-ops", "--format", "csv",
                                     (dir() / "memory.profrep").string()});
  ASSERT_EQ(ops.exit_code, 0) << ops.describe();
  std::istringstream lines(ops.out);
  std::string header;
  std::getline(lines, header);
  ASSERT_EQ(header, "Name,Pass,Calls,Self(ns),Self(%),Total(ns),Avg(ns),Min(ns),Max(ns),Mem(B),"
                    "Self Mem(B)");
  std::map<std::string, std::string> prof_rows;
  std::map<std::string, std::pair<int64_t, int64_t>> prof_memory; // total, self
  for (std::string line; std::getline(lines, line) && line.rfind('#', 0) != 0;) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');)
      cells.push_back(cell);
    ASSERT_EQ(cells.size(), 11u) << line;
    prof_rows[cells[0]] = (cells[9] == "0" ? "" : cells[2]) + "," + cells[9];
    prof_memory[cells[0]] = {std::stoll(cells[9]), std::stoll(cells[10])};
  }
  EXPECT_EQ(prof_rows, torch_rows) << r.out << "\n" << ops.out;
  for (const auto &[name, memory] : prof_memory) {
    const auto [total, self] = memory;
    if (self == total) { // nothing in its children: no timestamp to misplace
      EXPECT_EQ(self, torch_self[name]) << name << "\n" << r.out << "\n" << ops.out;
    } else { // torch may add some of its children's bytes, never more than they hold
      EXPECT_GE(torch_self[name], self) << name << "\n" << r.out << "\n" << ops.out;
      EXPECT_LE(torch_self[name] - self, total - self) << name << "\n" << r.out;
    }
  }

  // Each block: an instant allocating it, one freeing it (those freed before the end).
  report::ReportReader reader;
  ASSERT_TRUE(reader.open((dir() / "memory.profrep").string()));
  size_t allocs = 0, frees = 0;
  for (const prof_event &e : reader.read_all_events())
    if (e.type == PROF_EVENT_INSTANT && e.kind == PROF_CATEGORY_MEMORY &&
        reader.string(e.category) == "torch")
      ++(reader.string(e.name) == "alloc" ? allocs : frees);
  EXPECT_GE(allocs, 27u); // the program's tensors: 2, and 5 in each of 5 rounds
  EXPECT_GE(frees, 20u);  // 4 of each round's dropped
  EXPECT_LE(frees, allocs);
}

// A torch prof was not built with gets the bridge built for it at first
// use, once: a second run loads it from the cache. Prof's own torch (Debian's)
// has its bridge built with prof, and builds nothing.
TEST_P(TorchE2E, TheBridgeIsBuiltOnceForEachTorch) {
  const fs::path cache = dir() / "cache";
  const bool prof_built_for_it = python() == PROF_SYSTEM_PYTHON3;
  const std::string program =
      "import torch\nx = torch.ones(4, 4)\nfor _ in range(3): x = torch.mm(x, x)\nprint('done')";
  for (int run = 1; run <= 2; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const std::string name = "bridge" + std::to_string(run);
    const RunResult r = run_process({"/usr/bin/env", "PROF_TORCH_BRIDGE_CACHE=" + cache.string(),
                                     kProf, "--quiet", "--print-app-log", "-t", "torch", "-o",
                                     (dir() / name).string(), python(), "-c", program},
                                    {}, std::chrono::seconds(240));
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    EXPECT_EQ(r.out, "done\n");
    const bool built =
        r.err.find("prof: building the torch source's bridge for torch ") != std::string::npos;
    EXPECT_EQ(built, run == 1 && !prof_built_for_it) << r.err;
    EXPECT_EQ(read_report(dir() / (name + ".profrep")).named("aten::mm").size(), 3u);
  }
  EXPECT_EQ(fs::exists(cache) && !fs::is_empty(cache), !prof_built_for_it);
}

// Without a compiler, a torch prof was not built with is said in one line
// naming what to do; the program runs on with its own exit code.
TEST_P(TorchE2E, WithoutACompilerATorchProfWasNotBuiltWithIsSaidOnce) {
  if (python() == PROF_SYSTEM_PYTHON3) GTEST_SKIP() << "prof's bridge serves this torch";
  const RunResult r = run_process(
      {"/usr/bin/env", "PROF_TORCH_BRIDGE_CACHE=" + (dir() / "cache").string(), "PATH=/nonexistent",
       "CXX=", kProf, "--quiet", "--print-app-log", "-t", "torch", "-o", (dir() / "plain").string(),
       python(), "-c", "import sys, torch; print(torch.ones(2).sum().item()); sys.exit(5)"},
      {}, std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 5) << r.describe();
  EXPECT_EQ(r.out, "2.0\n");
  const std::string said = "no C++ compiler was found: install g++";
  ASSERT_NE(r.err.find(said), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(said), r.err.rfind(said)) << "said once: " << r.err;
}

// FSDP2 (fully_shard) on 2 gloo ranks: the parameters' all-gathers and the
// gradients' reduce-scatters (gloo runs each as an all-reduce: said as the
// reduce-scatter asked for), as many as torch.profiler counts in the same run.
TEST_P(TorchE2E, Fsdp2AllGathersAndReduceScattersAreCollectives) {
  if (python() == PROF_SYSTEM_PYTHON3) GTEST_SKIP() << "FSDP2 needs PyTorch 2.x";
  constexpr int kFsdpRanks = 2;
  std::vector<std::future<RunResult>> runs;
  for (int rank = 0; rank < kFsdpRanks; ++rank)
    runs.push_back(std::async(std::launch::async, [&, rank] {
      return run_process({"/usr/bin/env", "RANK=" + std::to_string(rank),
                          "WORLD_SIZE=" + std::to_string(kFsdpRanks), "MASTER_ADDR=127.0.0.1",
                          "MASTER_PORT=" + std::to_string(port(29660)), "OMP_NUM_THREADS=1", kProf,
                          "--quiet", "--print-app-log", "-t", "torch", "-o",
                          (dir() / "f%q{RANK}").string(), python(),
                          (kPrograms / "fsdp2_train.py").string(), "3"},
                         {}, std::chrono::seconds(240));
    }));
  std::map<std::string, int> torch_counts; // the same on both ranks
  for (int rank = 0; rank < kFsdpRanks; ++rank) {
    const RunResult r = runs[rank].get();
    ASSERT_EQ(r.exit_code, 0) << "rank " << rank << ": " << r.describe();
    const std::regex counted(R"rx(torch.profiler (\S+) (\d+))rx");
    for (std::sregex_iterator it(r.out.begin(), r.out.end(), counted), end; it != end; ++it)
      torch_counts[(*it)[1]] = std::stoi((*it)[2]);
  }
  ASSERT_GT(torch_counts["gloo:all_gather"], 0);
  ASSERT_GT(torch_counts["c10d::_reduce_scatter_base_"], 0);

  const RunResult collectives =
      run_process({kProf, "stats", "--report", "collectives", "--format", "csv", dir().string()});
  ASSERT_EQ(collectives.exit_code, 0) << collectives.describe();
  const auto calls = collective_calls(collectives.out);
  const std::map<int, int> all_gathers = {{0, torch_counts["gloo:all_gather"]},
                                          {1, torch_counts["gloo:all_gather"]}};
  const std::map<int, int> reduce_scatters = {{0, torch_counts["c10d::_reduce_scatter_base_"]},
                                              {1, torch_counts["c10d::_reduce_scatter_base_"]}};
  const auto rows = [&](const std::string &row) {
    return calls.count(row) ? calls.at(row) : std::map<int, int>{};
  };
  EXPECT_EQ(rows("gloo:0,gloo:all_gather"), all_gathers) << collectives.out;
  EXPECT_EQ(rows("gloo:0,gloo:reduce_scatter"), reduce_scatters) << collectives.out;
  EXPECT_EQ(collectives.out.find("unmatched"), std::string::npos) << collectives.out;
  const RunResult stragglers =
      run_process({kProf, "stats", "--report", "stragglers", dir().string()});
  EXPECT_EQ(stragglers.exit_code, 0) << stragglers.describe();
  EXPECT_NE(stragglers.out.find("gloo:reduce_scatter"), std::string::npos) << stragglers.out;
  const RunResult overlap = run_process({kProf, "stats", "--report", "overlap", dir().string()});
  EXPECT_EQ(overlap.exit_code, 0) << overlap.describe();
  for (int rank = 0; rank < kFsdpRanks; ++rank)
    EXPECT_NE(overlap.out.find("(rank " + std::to_string(rank) + ")"), std::string::npos)
        << overlap.out;
}

// torch.compile on the CPU: the kernels Inductor generates are operators of
// their own in the report, named as Inductor names them after what they fuse.
TEST_P(TorchE2E, InductorKernelsOfACompiledModelAreOperators) {
  if (python() == PROF_SYSTEM_PYTHON3) GTEST_SKIP() << "torch.compile needs PyTorch 2.x";
  const RunResult r = run_process({kProf, "--quiet", "--print-app-log", "-t", "torch", "-o",
                                   (dir() / "compiled").string(), python(),
                                   (kPrograms / "compiled_model.py").string(), "3"},
                                  {}, std::chrono::seconds(280));
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.out, "done\n");
  const RunResult ops = run_process({kProf, "stats", "--report", "torch-ops", "--format", "csv",
                                     (dir() / "compiled.profrep").string()});
  ASSERT_EQ(ops.exit_code, 0) << ops.describe();
  // cpp_fused_relu_0, cpp_fused_tanh_1: one call a step each.
  const std::regex kernel_row(R"rx((^|\n)(cpp_fused_\w+),forward,(\d+),)rx");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(ops.out, m, kernel_row)) << ops.out;
  EXPECT_EQ(m[3], "3") << m[2];
  EXPECT_NE(ops.out.find("Torch-Compiled Region"), std::string::npos) << ops.out;
}

// A program that never imports torch runs as before, and says nothing.
TEST_P(TorchE2E, AProgramWithoutTorchRunsUnharmed) {
  const RunResult r = run_process({kProf, "--quiet", "--print-app-log", "-t", "torch", "-o",
                                   (dir() / "plain").string(), python(), "-c",
                                   "import sys; print('fine'); sys.exit(3)"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(r.out, "fine\n");
  EXPECT_EQ(r.err.find("prof:"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Torch, TorchE2E, ::testing::ValuesIn(torch_pythons()),
                         [](const auto &info) { return info.param.name; });

} // namespace
} // namespace prof::e2e
