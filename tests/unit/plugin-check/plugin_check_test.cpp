// prof-plugin-check on fixture plugins: the good ones pass every rule, and
// each broken one fails with exit 1 and the rule of its family, saying why.
#include "tests/support/build_paths.hpp"
#include "tests/support/process_runner.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

const std::string &checker = prof::e2e::kPluginCheck;

std::string fixture(const std::string &name) {
  return PROF_CHECK_FIXTURE_DIR "/libprof-" + name + ".so";
}

prof::e2e::RunResult check(std::vector<std::string> args) {
  args.insert(args.begin(), checker);
  return prof::e2e::run_process(args);
}

/// The checker's line for `rule`, "" when there is none.
std::string line_of(const std::string &out, const std::string &rule) {
  for (const std::string &line : prof::e2e::split_lines(out))
    if (line.size() > 6 && line.compare(6, rule.size(), rule) == 0 &&
        (line.size() == 6 + rule.size() || line[6 + rule.size()] == ':'))
      return line;
  return "";
}

} // namespace

TEST(PluginCheck, AGoodSourcePassesEveryRule) {
  const auto run = check({fixture("good-source")});
  EXPECT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_EQ(run.out.find("FAIL"), std::string::npos) << run.out;
  // Its events ran through every events rule.
  EXPECT_EQ(line_of(run.out, "events.declared-track").rfind("pass  ", 0), 0u) << run.out;
  EXPECT_NE(line_of(run.out, "events.flows"), "");
  EXPECT_NE(run.out.find("good-source: "), std::string::npos);
}

TEST(PluginCheck, AGoodExporterPassesEveryRule) {
  const auto run = check({fixture("good-exporter")});
  EXPECT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_EQ(line_of(run.out, "exporter.large-capture").rfind("pass  ", 0), 0u) << run.out;
}

TEST(PluginCheck, ADescriptorWithoutVendorFails) {
  const auto run = check({fixture("broken-descriptor")});
  EXPECT_EQ(run.exit_code, 1) << run.describe();
  EXPECT_EQ(line_of(run.out, "descriptor.vendor"), "FAIL  descriptor.vendor: the vendor is empty");
}

TEST(PluginCheck, ConfigureRefusingTheTablesMaximumFails) {
  const auto run = check({fixture("broken-options")});
  EXPECT_EQ(run.exit_code, 1) << run.describe();
  EXPECT_EQ(line_of(run.out, "options.plugin-accepts-table-values"),
            "FAIL  options.plugin-accepts-table-values: the plugin refuses rate=100 (the "
            "maximum): configure failed: rate must be below 100");
}

TEST(PluginCheck, StopFailingWhileSuspendedFails) {
  const auto run = check({fixture("broken-lifecycle")});
  EXPECT_EQ(run.exit_code, 1) << run.describe();
  EXPECT_EQ(line_of(run.out, "lifecycle.stop-while-suspended"),
            "FAIL  lifecycle.stop-while-suspended: stop failed: cannot stop while suspended");
  EXPECT_EQ(line_of(run.out, "lifecycle.suspend-resume"), "pass  lifecycle.suspend-resume");
}

TEST(PluginCheck, ASliceOnAnUndeclaredTrackFails) {
  const auto run = check({fixture("broken-events")});
  EXPECT_EQ(run.exit_code, 1) << run.describe();
  EXPECT_EQ(line_of(run.out, "events.declared-track")
                .rfind("FAIL  events.declared-track: slice on track 4242 never declared", 0),
            0u)
      << run.out;
}

TEST(PluginCheck, AnExporterFailingALargeCaptureFails) {
  const auto run = check({fixture("broken-exporter")});
  EXPECT_EQ(run.exit_code, 1) << run.describe();
  EXPECT_EQ(line_of(run.out, "exporter.large-capture"),
            "FAIL  exporter.large-capture: plugin 'broken-exporter': consume failed: too many "
            "events");
  EXPECT_EQ(line_of(run.out, "exporter.one-of-each").rfind("pass  ", 0), 0u);
}

TEST(PluginCheck, AFileThatIsNoPluginFailsTheDescriptorRuleWithTheLoadersReason) {
  const auto run = check({checker});
  EXPECT_EQ(run.exit_code, 1) << run.describe();
  EXPECT_EQ(line_of(run.out, "descriptor.load").rfind("FAIL  descriptor.load: ", 0), 0u) << run.out;
}

TEST(PluginCheck, BadUsageSaysWhatWasExpectedAndExitsTwo) {
  auto run = check({"/no/such/libprof-x.so"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "prof-plugin-check: '/no/such/libprof-x.so' is not a file (expected a "
                     "plugin .so file)\n");
  run = check({fixture("good-source"), "--option", "rate"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "prof-plugin-check: --option 'rate': expected KEY=VALUE\n");
  run = check({fixture("good-source"), "--option", "speed=1"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "prof-plugin-check: --option: plugin 'good-source' has no option 'speed' "
                     "(options: rate, mode)\n");
  run = check({fixture("good-source"), "--verbose"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "prof-plugin-check: unknown option '--verbose' (expected --option "
                     "KEY=VALUE, --workload LIB.so, --sample FILE or --help)\n");
  run = check({fixture("good-source"), "--workload", fixture("good-exporter")});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "prof-plugin-check: --workload '" + fixture("good-exporter") +
                         "': does not export prof_check_workload\n");
}
