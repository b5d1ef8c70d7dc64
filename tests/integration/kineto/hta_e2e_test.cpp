// Holistic Trace Analysis on prof's Kineto exports: two MPI ranks of
// gcu-mpi-train captured by prof (gcusim kernels, copies, a memset, syncs and
// collective kernels, and the MPI calls), each rank exported with
// `prof export --type kineto` into one folder, HTA's temporal breakdown,
// kernel breakdown and communication/computation overlap computed on it
// (hta_figures.py, in the PyTorch 2.x environment) and compared with
// `prof stats` on the same reports.
//
// Tolerances: HTA rounds every event of a trace with sub-microsecond times
// inward to whole microseconds (start up, end down), so each event it sums
// may lose up to 2 us; totals are compared within 2 us per event. Overlap:
// HTA's is the share of the collective kernels' time on the device during
// which compute kernels ran, as prof's device overlap is; moving each
// end of an event by under 1 us moves the overlapped time by up to 2 us per
// collective or compute kernel and the collectives' time by up to 2 us per
// collective, which bounds the difference of the two shares (see
// overlap_tolerance), plus the rounding of both percentages to 0.01.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace prof::e2e {
namespace {

namespace fs = std::filesystem;
const std::string kMpirun = PROF_MPIRUN;
const std::string kPython = PROF_TORCH2_PYTHON;
const std::string kScript = PROF_HTA_SCRIPT;
const std::string kProgram = test_program("gcu-mpi-train");
constexpr int kRanks = 2;
/// What HTA may lose of one event by rounding it to whole microseconds.
constexpr double kRoundingNs = 2000;

/// How far apart, in percentage points, HTA's overlap and prof's may be
/// when HTA's events each lose up to kRoundingNs: the overlapped time `o` of
/// communication time `c` moves by up to `do` = kRoundingNs per collective
/// and compute kernel, `c` by up to `dc` = kRoundingNs per collective, and
/// |(o+do)/(c-dc) - o/c| <= (do + dc) / (c - dc) as o <= c.
double overlap_tolerance(double communication_ns, long collectives, long compute_kernels) {
  const double moved_overlap = kRoundingNs * static_cast<double>(collectives + compute_kernels);
  const double moved_communication = kRoundingNs * static_cast<double>(collectives);
  return 100 * (moved_overlap + moved_communication) / (communication_ns - moved_communication) +
         0.01;
}

/// The device work HTA reads (kernels, collectives, copies, the memset,
/// stream syncs) and the runtime calls that launched it (their correlation).
const std::string kActivities =
    "*/general/operator|*/*/cdma/DMA VC Execution|*/*/sdma/DMA VC Execution|"
    "*/*/cdma_lite/DMA VC Execution|*/*/sdma_lite/DMA VC Execution|*/*/sip_lite/SIP Busy|"
    "*/ts/TS Record Stream,TS Wait Stream,TS Memory Wait|Api Trace/RUNTIME/*";

/// One report of `prof stats --format csv`: rows by their first key
/// column's value, each as column -> text.
using CsvRows = std::vector<std::map<std::string, std::string>>;

std::vector<std::string> csv_fields(const std::string &line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

CsvRows parse_csv(const std::string &text) {
  CsvRows rows;
  std::vector<std::string> header;
  for (const std::string &line : split_lines(text)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = csv_fields(line);
    if (header.empty()) {
      header = fields;
      continue;
    }
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < fields.size() && i < header.size(); ++i)
      row[header[i]] = fields[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

/// HTA's figures for one rank.
struct HtaRank {
  double idle_us = 0, compute_us = 0, non_compute_us = 0, span_us = 0, overlap_percent = NAN;
  struct Kernel {
    std::string type;
    long count = 0;
    double sum_us = 0;
  };
  std::map<std::string, Kernel> kernels; ///< by name
};

std::map<int, HtaRank> parse_hta(const std::string &out) {
  std::map<int, HtaRank> ranks;
  for (const std::string &line : split_lines(out)) {
    std::istringstream in(line);
    std::string what;
    int rank = -1;
    in >> what >> rank;
    HtaRank &r = ranks[rank];
    if (what == "temporal") {
      in >> r.idle_us >> r.compute_us >> r.non_compute_us >> r.span_us;
    } else if (what == "kernel") {
      HtaRank::Kernel k;
      std::string name;
      in >> k.type >> k.count >> k.sum_us;
      std::getline(in >> std::ws, name);
      r.kernels[name] = k;
    } else if (what == "overlap") {
      in >> r.overlap_percent;
    }
  }
  return ranks;
}

double number(const std::map<std::string, std::string> &row, const std::string &column) {
  const auto it = row.find(column);
  EXPECT_NE(it, row.end()) << "no column " << column;
  return it == row.end() ? NAN : std::stod(it->second);
}

class HtaE2E : public ::testing::Test {
protected:
  void SetUp() override {
    if (kMpirun.empty()) GTEST_SKIP() << "no mpirun (install openmpi-bin)";
    if (!fs::exists(kPython))
      GTEST_SKIP() << "no PyTorch 2.x environment at " << kPython
                   << " (tools/setup makes it; or set PROF_TORCH2_PYTHON)";
    const RunResult hta = run_process({kPython, "-c", "import hta.trace_analysis"});
    if (hta.exit_code != 0)
      GTEST_SKIP() << "no Holistic Trace Analysis in " << kPython
                   << " (pip install holistictraceanalysis): " << hta.err;
  }

  /// `prof stats --report REPORT --format csv` of rank `rank`.
  CsvRows stats(const std::string &report, int rank) {
    const RunResult r = run_process({kProf, "stats", "--report", report, "--format", "csv",
                                     (dir_ / ("r" + std::to_string(rank) + ".profrep")).string()});
    EXPECT_EQ(r.exit_code, 0) << r.describe();
    return parse_csv(r.out);
  }

  testing::ScratchDir scratch_{"prof-hta", testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

TEST_F(HtaE2E, HtaReadsTheRanksExportsAndAgreesWithProfStats) {
  // mpirun around prof: each rank's own report (each process's gcusim has a
  // device 0; under one prof they would be one device shared by both).
  const RunResult captured =
      run_process({kMpirun, "--allow-run-as-root", "--oversubscribe", "-np", std::to_string(kRanks),
                   kProf, "--quiet", "--trace", "mpi", "--enable-activities", kActivities, "-o",
                   (dir_ / "r%q{OMPI_COMM_WORLD_RANK}").string(), kProgram, "4"},
                  dir_, std::chrono::seconds(180));
  ASSERT_EQ(captured.exit_code, 0) << captured.describe();
  const fs::path traces = dir_ / "traces";
  fs::create_directories(traces);
  for (int rank = 0; rank < kRanks; ++rank) {
    const std::string name = "r" + std::to_string(rank);
    const RunResult exported =
        run_process({kProf, "export", "--type", "kineto", (dir_ / (name + ".profrep")).string()});
    ASSERT_EQ(exported.exit_code, 0) << exported.describe();
    fs::rename(dir_ / (name + ".pt.trace.json"), traces / (name + ".pt.trace.json"));
  }

  const RunResult hta =
      run_process({kPython, kScript, traces.string()}, dir_, std::chrono::seconds(300));
  ASSERT_EQ(hta.exit_code, 0) << hta.describe();
  std::cout << hta.out;
  const std::map<int, HtaRank> figures = parse_hta(hta.out);
  ASSERT_EQ(figures.size(), static_cast<size_t>(kRanks)) << hta.out << "\neach file its own rank";

  for (int rank = 0; rank < kRanks; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const HtaRank &h = figures.at(rank);

    // Kernel breakdown: every device activity by name, its calls and time.
    std::map<std::string, std::map<std::string, std::string>> activities;
    for (auto &row : stats("gcu-activity", rank))
      activities[row["Name"]] = row;
    long device_events = 0, collectives = 0;
    std::map<std::string, long> types;
    for (const auto &[name, k] : h.kernels) {
      SCOPED_TRACE(name);
      ++types[k.type];
      if (k.type == "COMMUNICATION") collectives += k.count;
      // HTA's name for a collective kernel is Kineto's (ncclDevKernel_NAME).
      const std::string prof_name =
          k.type == "COMMUNICATION" ? name.substr(name.find('_') + 1) : name;
      ASSERT_TRUE(activities.contains(prof_name)) << "prof has no activity " << prof_name;
      const auto &row = activities[prof_name];
      EXPECT_EQ(k.count, static_cast<long>(number(row, "Calls")));
      EXPECT_NEAR(k.sum_us * 1000, number(row, "Time(ns)"), kRoundingNs * k.count);
      device_events += k.count;
    }
    EXPECT_GE(types["COMPUTATION"], 2) << "forward_dtu, backward_dtu";
    EXPECT_EQ(types["COMMUNICATION"], 1) << "eccl_all_reduce";
    EXPECT_GE(types["MEMORY"], 3) << "Memcpy HtoD, Memcpy DtoH, Memset";

    // Compute time: the kernels of prof's kernels report (one stream: their sum).
    double kernel_ns = 0;
    long kernel_calls = 0;
    for (auto &row : stats("kernels", rank)) {
      kernel_ns += number(row, "Time(ns)");
      kernel_calls += static_cast<long>(number(row, "Calls"));
    }
    EXPECT_NEAR(h.compute_us * 1000, kernel_ns, kRoundingNs * kernel_calls);

    // Temporal breakdown: the device's span and idle time.
    const CsvRows idle = stats("idle", rank);
    ASSERT_EQ(idle.size(), 1u) << "one device at work";
    EXPECT_NEAR(h.span_us * 1000, number(idle[0], "Span(ns)"), kRoundingNs);
    EXPECT_NEAR(h.idle_us * 1000, number(idle[0], "Idle(ns)"), kRoundingNs * device_events);
    EXPECT_NEAR(h.non_compute_us * 1000,
                number(idle[0], "Span(ns)") - number(idle[0], "Idle(ns)") - kernel_ns,
                kRoundingNs * device_events);

    // Communication/computation overlap: HTA's is prof's on the device.
    const CsvRows overlap = stats("overlap", rank);
    ASSERT_EQ(overlap.size(), 1u);
    const double device_communication = number(overlap[0], "DeviceCommunication(ns)");
    const double tolerance = overlap_tolerance(device_communication, collectives, kernel_calls);
    std::cout << "rank " << rank << " overlap: HTA " << h.overlap_percent << "%, prof device "
              << number(overlap[0], "DeviceOverlap(%)") << "% (within " << tolerance
              << " points), prof calls " << number(overlap[0], "Overlap(%)") << "%\n";
    EXPECT_NEAR(h.overlap_percent, number(overlap[0], "DeviceOverlap(%)"), tolerance);
    EXPECT_LT(tolerance, 10) << "collectives too short to compare their overlap";
    EXPECT_GT(h.overlap_percent, 0) << "the all-reduces ran beside the backward kernels";
  }
}

} // namespace
} // namespace prof::e2e
