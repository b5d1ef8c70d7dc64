#include "tools/prof/cli/command_line_parser.hpp"
#include "tools/prof/cli/help_text.hpp"
#include "tools/prof/cli/option_table.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <gtest/gtest.h>

namespace prof::cli {
namespace {

// Whether `text` lists the option as "--NAME VALUE" or "--NAME[=VALUE]",
// after `before` ("\n      " or ", " for a line with a short option).
bool lists(const std::string &text, std::string_view name, const std::string &before = "") {
  const std::string spelled = before + "--" + std::string(name);
  return text.find(spelled + " ") != std::string::npos ||
         text.find(spelled + "[=") != std::string::npos;
}

TEST(HelpText, ListsEveryOptionUnderItsGroup) {
  const std::string text = help_text();
  for (const auto &spec : option_specs())
    EXPECT_TRUE(lists(text, spec.name)) << spec.name;
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
  EXPECT_NE(text.find("      --debug-dump[=DIR]  "), std::string::npos);
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

namespace prof::cli {
namespace {

TEST(SubcommandHelp, EachListsOnlyTheOptionsItTakes) {
  for (const auto &sub : subcommand_specs()) {
    if (sub.options == OptionSet::Own) continue;
    const std::string text = help_text(sub);
    EXPECT_EQ(text.rfind("Usage: prof " + std::string(sub.name) + " ", 0), 0u) << sub.name;
    for (const auto &spec : option_specs()) {
      const bool listed = lists(text, spec.name, "\n      ") || lists(text, spec.name, ", ");
      EXPECT_EQ(listed, refusal(sub, spec).empty()) << sub.name << " --" << spec.name;
    }
  }
  const std::string start = help_text(*find_subcommand("start"));
  EXPECT_NE(start.find("  -o, --output NAME"), std::string::npos);
  // With --all, prof start is a capture of its own and takes attach's options.
  EXPECT_NE(start.find("--enable-activities"), std::string::npos);
  EXPECT_NE(start.find("--match"), std::string::npos);
  EXPECT_EQ(start.find("--env-var"), std::string::npos);
  EXPECT_EQ(help_text(*find_subcommand("attach")).find("--env-var"), std::string::npos);
  EXPECT_EQ(help_text(*find_subcommand("launch")).find("--profile-from-start"), std::string::npos);
}

TEST(SubcommandHelp, ScopesAreMarkedAsAsysDoes) {
  EXPECT_EQ(scope_mark("trace"), "[application scope]");
  EXPECT_EQ(scope_mark("enable-activities"), "[application scope]");
  EXPECT_EQ(scope_mark("cpu-utilization"), "[system scope]");
  EXPECT_EQ(scope_mark("nic-metrics"), "[system scope]");
  EXPECT_EQ(scope_mark("print-summary"), "");
  // The same line in prof --help and prof profile --help.
  const std::string all = help_text(), profile = help_text(*find_subcommand("profile"));
  for (const char *option : {"--trace ITEMS", "--cpu-utilization", "--enable-activities FILTER"}) {
    const auto line_of = [&](const std::string &text) {
      const auto at = text.find(option);
      return text.substr(text.rfind('\n', at) + 1, text.find('\n', at) - text.rfind('\n', at) - 1);
    };
    EXPECT_EQ(line_of(all), line_of(profile)) << option;
    EXPECT_NE(line_of(all).find(" scope]"), std::string::npos) << option;
  }
}

TEST(SubcommandHelp, TopLevelHelpNamesEverySubcommand) {
  const std::string text = help_text();
  for (const auto &sub : subcommand_specs()) {
    EXPECT_NE(text.find("\n       prof " + std::string(sub.name) + " "), std::string::npos)
        << sub.name;
    EXPECT_NE(text.find("\n  " + std::string(sub.name) + " "), std::string::npos) << sub.name;
  }
}

TEST(SubcommandTable, ParserRefusesOptionsASubcommandDoesNotTake) {
  const auto error_of = [](const std::vector<std::string> &args) -> std::string {
    try {
      parse_arguments(args);
    } catch (const UsageError &e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of({"stop", "--cpu-utilization"}),
            "prof: 'prof stop' takes no --cpu-utilization (see prof stop --help)");
  EXPECT_EQ(error_of({"attach", "--env-var", "A=1", "1234"}),
            "prof: --env-var sets up a launched application: it cannot apply to a process that "
            "is already running");
  EXPECT_EQ(error_of({"attach", "--kill", "none", "1234"}),
            "prof: --kill: prof attach never stops the processes it attaches to");
  EXPECT_EQ(error_of({"profile", "--plugin-list"}),
            "prof: 'prof profile' takes no --plugin-list (see prof profile --help)");
  EXPECT_EQ(error_of({"export", "r.profrep"}),
            "prof: 'prof export' takes its own arguments (see prof export --help)");
  // The flat form takes every option.
  EXPECT_EQ(error_of({"--plugin-list"}), "no error");
  const CommandLine start = parse_arguments({"start", "-o", "w2", "--session", "s"});
  EXPECT_TRUE(start.subcommand_given);
  EXPECT_FALSE(parse_arguments({"--cpu-utilization", "ls"}).subcommand_given);
}

} // namespace
} // namespace prof::cli
