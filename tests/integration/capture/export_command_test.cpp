// `prof export`: bad input is refused with exit 2 and nothing written.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"

#include "core/report/chunk.hpp"
#include "core/report/report_writer.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using prof::e2e::run_process;

namespace {
using prof::e2e::kProf;
}

TEST(ExportCommand, RefusesBadInput) {
  const fs::path dir = fs::temp_directory_path() / ("prof-export-" + std::to_string(getpid()));
  fs::create_directories(dir);
  auto none = run_process({kProf, "export"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err, "prof: export: give exactly one report to export (see prof export --help)\n");

  auto unknown = run_process({kProf, "export", "--type", "nope", (dir / "r.profrep").string()});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err.rfind("prof: export: unknown type 'nope' (types: ", 0), 0u) << unknown.err;

  auto bad_option = run_process({kProf, "export", "--frobnicate", "r.profrep"});
  EXPECT_EQ(bad_option.exit_code, 2);
  EXPECT_EQ(bad_option.err.rfind("prof: export: ", 0), 0u) << bad_option.err;

  std::ofstream(dir / "not-a-report.profrep") << "hello";
  auto not_report =
      run_process({kProf, "export", "--type", "perfetto", "-o", (dir / "out.trace").string(),
                   (dir / "not-a-report.profrep").string()});
  EXPECT_EQ(not_report.exit_code, 2) << not_report.describe();
  EXPECT_FALSE(fs::exists(dir / "out.trace"));
  fs::remove_all(dir);
}

// A damaged EVENTS chunk (checksum intact, payload malformed) between good
// ones: the export holds every other event and one warning names the chunk.
TEST(ExportCommand, AMalformedEventsChunkIsLeftOutAndNamed) {
  const fs::path dir = fs::temp_directory_path() / ("prof-export-bad-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "r.profrep").string();
  prof::report::ReportWriter writer;
  writer.open(path, prof::report::Header{}, true);
  const std::string_view name = "load";
  writer.add_strings(1, std::span<const std::string_view>(&name, 1));
  const prof::report::TrackRecord track{1, PROF_TRACK_COUNTER, 0, "load", 0, 0, -1, "%", 0};
  writer.add_tracks(std::span<const prof::report::TrackRecord>(&track, 1));
  for (int chunk = 0; chunk < 3; ++chunk) {
    if (chunk == 1) {
      const uint8_t malformed[] = {3, 1, 1}; // three events claimed, one byte present
      writer.add_raw_chunk(static_cast<uint16_t>(prof::report::ChunkType::events), 0, malformed);
    }
    for (int i = 0; i < 100; ++i) {
      const prof_event e{PROF_EVENT_COUNTER,         0, 0, 1,      0, 0,
                         uint64_t(chunk * 1000 + i), 0, 0, 1.0 * i};
      writer.add_events(&e, 1);
    }
    writer.flush();
  }
  writer.finish({});
  const auto r = run_process({kProf, "export", "--type", "csv", path});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("is corrupted (malformed events payload); its events are left out"),
            std::string::npos)
      << r.describe();
  std::ifstream counters(dir / "r-csv" / "counters.csv");
  size_t lines = 0;
  for (std::string line; std::getline(counters, line);)
    ++lines;
  EXPECT_EQ(lines, 1u + 300u) << "a header and every good event";
  fs::remove_all(dir);
}
