#include "tools/prof/cli/help_text.hpp"
#include "tools/prof/cli/option_table.hpp"

#include <gtest/gtest.h>

namespace prof::cli {
namespace {

TEST(HelpText, ListsEveryOptionUnderItsGroup) {
  const std::string text = help_text();
  for (const auto &spec : option_specs())
    EXPECT_NE(text.find("--" + std::string(spec.name) + " "), std::string::npos) << spec.name;
  std::size_t last = 0;
  for (auto group :
       {OptionGroup::Gcu, OptionGroup::Cpu, OptionGroup::Print, OptionGroup::InputOutput,
        OptionGroup::Control, OptionGroup::Plugin, OptionGroup::Advanced}) {
    const auto at = text.find(std::string(group_title(group)) + ":");
    ASSERT_NE(at, std::string::npos) << group_title(group);
    EXPECT_GT(at, last);
    last = at;
  }
  EXPECT_NE(text.find("  -o, --output NAME"), std::string::npos);
  EXPECT_EQ(text.rfind("Usage: prof [options] application", 0), 0u);
}

TEST(HelpText, Version) { EXPECT_EQ(version_text().rfind("prof ", 0), 0u); }

TEST(OptionTable, NamesAreUnique) {
  auto specs = option_specs();
  for (std::size_t i = 0; i < specs.size(); ++i)
    for (std::size_t j = i + 1; j < specs.size(); ++j) {
      EXPECT_NE(specs[i].name, specs[j].name);
      if (specs[i].short_name) {
        EXPECT_NE(specs[i].short_name, specs[j].short_name);
      }
    }
}

TEST(OptionTable, TopsprofOptionsArePresent) {
  for (auto name : {"profile-from-start",
                    "query-events",
                    "query-activities",
                    "query-trace",
                    "enable-events",
                    "enable-activities",
                    "export-events",
                    "export-activities",
                    "import-events",
                    "import-activities",
                    "devices",
                    "metrics",
                    "gcu-utilization",
                    "gcu-utilization-frequency",
                    "cpu-profiling-callstack",
                    "cpu-profiling-frequency",
                    "cpu-utilization",
                    "memory-utilization",
                    "utilization-frequency",
                    "kernel-callstack",
                    "print-gcu-summary",
                    "print-gcu-trace",
                    "print-summary",
                    "print-summary-per-gcu",
                    "print-api-summary",
                    "quiet",
                    "print-app-log",
                    "export-profile",
                    "export-visual-profiler",
                    "import-profile",
                    "export-rawdata",
                    "import-rawdata",
                    "export-csv",
                    "visual-profiler-merge-from",
                    "visual-profiler-merge-to",
                    "log-file",
                    "force-overwrite",
                    "help",
                    "version",
                    "debug",
                    "debug-dump",
                    "session",
                    "session-new",
                    "session-list",
                    "start",
                    "stop",
                    "suspend",
                    "resume",
                    "cancel",
                    "plugin",
                    "plugin-list",
                    "reset",
                    "buffer",
                    "device-buffer-size",
                    "host-buffer-size",
                    "host-ringbuffer-size",
                    "watermark-threshold",
                    "memory-profile",
                    "print-trace",
                    "config",
                    "plugin-path",
                    "show-output",
                    "trace",
                    "sample",
                    "output"})
    EXPECT_NE(find_option(name), nullptr) << name;
}

} // namespace
} // namespace prof::cli
