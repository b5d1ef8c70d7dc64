// `prof stats --report device-memory` on reports with known allocations:
// the peak and when it was reached, the blocks live at it, the blocks never
// freed with the calls that allocated them, frees of blocks allocated before
// the capture, and a report without memory events.
#include "stats_test_report.hpp"
#include "tests/support/json_check.hpp"

#include "core/plugin_host/report_export_view.hpp"
#include "core/report/report_reader.hpp"
#include "tools/prof/stats/stats_scan.hpp"
#include <prof/stats/stats_reports.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <sstream>

namespace prof::stats {
namespace {

using prof::testing::Json;
using prof::testing::JsonParser;
using testing::kOrigin;
using testing::kUs;
using Row = std::vector<std::string>;

uint64_t us(uint64_t t) { return kOrigin + t * kUs; }

/// GCU 0 (us from the session's start):
///   10 alloc A 0x1000 1000 device, by gcuMalloc on main (11)
///   20 alloc P 0x9000 5000 pinned, by gcuMallocHost on main (11)
///   30 alloc B 0x2000 3000 device, by gcuMalloc on worker (12)
///   35 free 0x7000 (allocated before the capture)
///   40 alloc C 0x3000 2000 device, no call          -> peak 6000
///   50 free A; 60 free C
///   70 alloc D 0x1000 500 device (A's address again), by gcuMalloc on main
/// GCU 1: 15 alloc 0x1000 64, 16 free it.
/// Events are out of time order in the report, three to a chunk.
testing::TestReport memory_report() {
  testing::TestReport r;
  const uint32_t process = r.track(PROF_TRACK_PROCESS, 0, "app");
  const uint32_t main = r.thread(process, "main", 11);
  const uint32_t worker = r.thread(process, "worker", 12);
  const uint32_t gcu0 = r.track(PROF_TRACK_DEVICE, 0, "GCU 0", 0);
  const uint32_t row0 = r.track(PROF_TRACK_CUSTOM, gcu0, "Memory");
  const uint32_t sip = r.track(PROF_TRACK_ENGINE, gcu0, "SIP 0", 0);
  const uint32_t gcu1 = r.track(PROF_TRACK_DEVICE, 0, "GCU 1", 1);
  const uint32_t row1 = r.track(PROF_TRACK_CUSTOM, gcu1, "Memory");

  r.call(main, us(9), 2 * kUs, "gcuMalloc", 101);
  r.memory(row0, us(10), "alloc", 0x1000, 1000, "device", 101);
  r.call(main, us(19), 2 * kUs, "gcuMallocHost", 102);
  r.memory(row0, us(20), "alloc", 0x9000, 5000, "pinned", 102);
  r.memory(row1, us(15), "alloc", 0x1000, 64, "device", 0);
  r.memory(row1, us(16), "free", 0x1000, 64, "device", 0);
  r.memory(row0, us(40), "alloc", 0x3000, 2000, "device", 0);
  r.call(worker, us(29), 2 * kUs, "gcuMalloc", 103);
  // Device work repeats its call's id: it is not the call.
  r.slice(sip, us(31), 5 * kUs, "kernel", "Operator", PROF_CATEGORY_KERNEL);
  r.memory(row0, us(30), "alloc", 0x2000, 3000, "device", 103);
  r.memory(row0, us(35), "free", 0x7000, 99, "device", 0);
  r.memory(row0, us(50), "free", 0x1000, 1000, "device", 0);
  r.memory(row0, us(60), "free", 0x3000, 2000, "device", 0);
  r.call(main, us(69), 2 * kUs, "gcuMalloc", 104);
  r.memory(row0, us(70), "alloc", 0x1000, 500, "device", 104);
  // Not memory events the report reads: not under a device, no bytes.
  r.memory(main, us(80), "alloc", 0x5000, 7, "device", 0);
  r.instant(row0, us(90), "alloc");
  return r;
}

class DeviceMemoryReport : public ::testing::Test {
protected:
  void open(const testing::TestReport &report, size_t events_per_chunk) {
    path_ = dir_.file("r.profrep");
    report.write(path_, events_per_chunk);
    host_.reset();
    ASSERT_TRUE(reader_.open(path_)) << reader_.problems().back();
    host_.emplace(reader_);
  }
  StatsTable report(size_t threads = 0) {
    StatsAggregator aggregator =
        tool::scan_report(reader_, host_->host(), scope_for({"device-memory"}, {}), {threads, {}})
            .aggregator;
    return build_report("device-memory", aggregator, host_->host(), {});
  }
  /// Each row of `section` as CSV would write its cells.
  static std::vector<Row> rows(const StatsTable &table, size_t section) {
    std::vector<Row> out;
    for (const auto &cells : table.sections.at(section).rows) {
      Row row;
      for (const Cell &cell : cells)
        row.push_back(cell.kind == Cell::Kind::Integer ? std::to_string(cell.integer) : cell.data);
      out.push_back(row);
    }
    return out;
  }

  testing::ScratchDir dir_;
  std::string path_;
  report::ReportReader reader_;
  std::optional<core::ReportExportView> host_;
};

TEST_F(DeviceMemoryReport, PeakLiveBlocksAndLeaksPerDevice) {
  open(memory_report(), 3);
  const StatsTable table = report();
  ASSERT_EQ(table.sections.size(), 2u);
  EXPECT_EQ(table.label_key, "Device");
  EXPECT_EQ(table.sections[0].label, "GCU 0");
  EXPECT_EQ(table.sections[0].title, "======== Device memory (GCU 0):");
  const std::vector<Row> expected{
      {"peak", "40000", "", "6000", "device", "", ""},
      {"live at peak", "30000", "0x2000", "3000", "device", "gcuMalloc", "worker (12)"},
      {"live at peak", "40000", "0x3000", "2000", "device", "", ""},
      {"live at peak", "10000", "0x1000", "1000", "device", "gcuMalloc", "main (11)"},
      {"leak", "20000", "0x9000", "5000", "pinned", "gcuMallocHost", "main (11)"},
      {"leak", "30000", "0x2000", "3000", "device", "gcuMalloc", "worker (12)"},
      {"leak", "70000", "0x1000", "500", "device", "gcuMalloc", "main (11)"},
  };
  EXPECT_EQ(rows(table, 0), expected);
  EXPECT_EQ(rows(table, 1),
            (std::vector<Row>{{"peak", "15000", "", "64", "device", "", ""},
                              {"live at peak", "15000", "0x1000", "64", "device", "", ""}}));
  ASSERT_EQ(table.notes.size(), 4u);
  EXPECT_EQ(table.notes[0], "GCU 0: 5 allocations, 2 frees; peak 5.86KiB at 40.00us with 3 "
                            "blocks live; 3 blocks (8.30KiB) never freed");
  EXPECT_EQ(table.notes[1], "GCU 0: 1 free of a block allocated before the capture was ignored");
  EXPECT_EQ(table.notes[2], "GCU 1: 1 allocation, 1 free; peak 64.00B at 15.00us with 1 block "
                            "live; 0 blocks (0.00B) never freed");
}

TEST_F(DeviceMemoryReport, TheSameWithOneThreadAndWholeChunks) {
  open(memory_report(), 3);
  const StatsTable parallel = report();
  const StatsTable serial = report(1);
  EXPECT_EQ(render_csv({parallel}), render_csv({serial}));
  open(memory_report(), 65536);
  EXPECT_EQ(render_csv({report()}), render_csv({parallel}));
}

TEST_F(DeviceMemoryReport, RendersAsTableCsvAndJson) {
  open(memory_report(), 3);
  const StatsTable table = report();
  std::stringstream text(render_table({table}));
  std::string line;
  std::getline(text, line);
  EXPECT_EQ(line, "======== Device memory (GCU 0):");
  std::getline(text, line);
  EXPECT_EQ(line, "       Block     Time  Address  Bytes  Memory  Call           Thread");
  std::getline(text, line);
  EXPECT_EQ(line, "        peak  40.00us  -         6000  device  -              -");

  std::stringstream csv(render_csv({table}));
  std::getline(csv, line);
  EXPECT_EQ(line, "Device,Block,Time(ns),Address,Bytes,Memory,Call,Thread");
  std::getline(csv, line);
  EXPECT_EQ(line, "GCU 0,peak,40000,,6000,device,,");

  const Json json = JsonParser::parse(render_json({table}));
  const Json &leak = json["device-memory"]["rows"].items.at(4);
  EXPECT_EQ(leak["Device"].text, "GCU 0");
  EXPECT_EQ(leak["Block"].text, "leak");
  EXPECT_EQ(leak["Address"].text, "0x9000");
  EXPECT_EQ(leak["Bytes"].number, 5000);
  EXPECT_EQ(leak["Call"].text, "gcuMallocHost");
}

TEST_F(DeviceMemoryReport, FreesOfEarlierBlocksNeverGoNegative) {
  testing::TestReport r;
  const uint32_t gcu = r.track(PROF_TRACK_DEVICE, 0, "GCU 0", 0);
  const uint32_t row = r.track(PROF_TRACK_CUSTOM, gcu, "Memory");
  r.memory(row, us(1), "free", 0x1000, 4096);
  r.memory(row, us(2), "free", 0x2000, 4096);
  r.memory(row, us(3), "alloc", 0x3000, 100);
  r.memory(row, us(4), "free", 0x3000, 100);
  open(r, 2);
  const StatsTable table = report();
  EXPECT_EQ(rows(table, 0),
            (std::vector<Row>{{"peak", "3000", "", "100", "device", "", ""},
                              {"live at peak", "3000", "0x3000", "100", "device", "", ""}}));
  EXPECT_EQ(table.notes.at(1),
            "GCU 0: 2 frees of blocks allocated before the capture were ignored");
}

TEST_F(DeviceMemoryReport, PinnedMemoryMakesNoPeak) {
  testing::TestReport r;
  const uint32_t gcu = r.track(PROF_TRACK_DEVICE, 0, "GCU 0", 0);
  r.memory(gcu, us(1), "alloc", 0x1000, 4096, "pinned"); // on the device track itself
  r.memory(gcu, us(2), "alloc", 0x2000, 10, "");         // no `memory`: device memory
  open(r, 10);
  const StatsTable table = report();
  EXPECT_EQ(rows(table, 0), (std::vector<Row>{{"peak", "2000", "", "10", "device", "", ""},
                                              {"live at peak", "2000", "0x2000", "10", "", "", ""},
                                              {"leak", "1000", "0x1000", "4096", "pinned", "", ""},
                                              {"leak", "2000", "0x2000", "10", "", "", ""}}));
}

TEST_F(DeviceMemoryReport, NoMemoryEventsSaysSo) {
  open(testing::known_report(), 3);
  const StatsTable table = report();
  EXPECT_EQ(table.row_count(), 0u);
  EXPECT_EQ(render_table({table}),
            "======== Device memory: no device memory events in this report\n");
}

} // namespace
} // namespace prof::stats
