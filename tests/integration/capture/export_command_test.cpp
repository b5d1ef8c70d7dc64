// `prof export`: bad input is refused with exit 2 and nothing written.
#include "process_runner.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using prof::e2e::run_process;

namespace {
const std::string kProf = (fs::path(PROF_BUILD_DIR) / "bin" / "prof").string();
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
  auto not_report = run_process({kProf, "export", "--type", "perfetto", "-o",
                                 (dir / "out.trace").string(), (dir / "not-a-report.profrep").string()});
  EXPECT_EQ(not_report.exit_code, 2) << not_report.describe();
  EXPECT_FALSE(fs::exists(dir / "out.trace"));
  fs::remove_all(dir);
}
