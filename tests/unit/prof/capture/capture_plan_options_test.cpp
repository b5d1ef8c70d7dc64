// The capture window options: values, defaults and combinations.
#include "tools/prof/capture/application_environment.hpp"
#include "tools/prof/capture/capture_plan_options.hpp"
#include "tools/prof/cli/command_line_parser.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <gtest/gtest.h>

#include <csignal>

namespace prof::tool {
namespace {

CapturePlan plan_of(std::vector<std::string> args) {
  args.push_back("./app");
  return capture_plan(cli::parse_arguments(args));
}

std::string error_of(std::vector<std::string> args) {
  try {
    plan_of(std::move(args));
  } catch (const cli::UsageError &e) {
    const std::string text = e.what();
    return text.starts_with("prof: ") ? text.substr(6) : text;
  }
  return "no error";
}

TEST(CapturePlan, DefaultsCollectFromLaunchToExit) {
  const CapturePlan plan = plan_of({});
  EXPECT_TRUE(plan.collects_at_launch());
  EXPECT_FALSE(plan.windowed());
  EXPECT_EQ(plan.kill_signal, SIGTERM);
  EXPECT_FALSE(plan_of({"--profile-from-start", "off"}).collects_at_launch());
}

TEST(CapturePlan, DelayDurationAndKill) {
  const CapturePlan plan = plan_of({"-y", "1.5", "-d", "2", "--kill", "sigkill"});
  EXPECT_EQ(plan.delay, std::chrono::milliseconds(1500));
  EXPECT_EQ(plan.duration, std::chrono::seconds(2));
  EXPECT_EQ(plan.kill_signal, SIGKILL);
  EXPECT_FALSE(plan.collects_at_launch());
  EXPECT_EQ(plan_of({"--kill", "none"}).kill_signal, 0);
  EXPECT_EQ(plan_of({"--kill", "SIGINT"}).kill_signal, SIGINT);
  EXPECT_EQ(plan_of({"--kill", "9"}).kill_signal, 9);
  EXPECT_EQ(error_of({"--duration", "0"}), "--duration '0': expected more than 0 seconds");
  EXPECT_EQ(error_of({"--delay", "-1"}),
            "--delay '-1': expected seconds, a number from 0 (e.g. 2 or 0.5)");
  EXPECT_EQ(error_of({"--kill", "often"}),
            "--kill 'often': expected none, a signal name (sigterm, sigkill, sigint) or number");
}

TEST(CapturePlan, CaptureRangesAndTheirEnd) {
  CapturePlan plan = plan_of({"-c", "profiler-api"});
  EXPECT_EQ(plan.range, CaptureRange::ProfilerApi);
  EXPECT_EQ(plan.range_end, RangeEnd::StopShutdown);
  plan = plan_of({"-c", "annotation", "-p", "DoProcess@train", "--capture-range-end", "repeat:3"});
  EXPECT_EQ(plan.annotation_name, "DoProcess");
  EXPECT_EQ(plan.annotation_domain, "train");
  EXPECT_EQ(plan.range_end, RangeEnd::Repeat);
  EXPECT_EQ(plan.range_limit, 3u);
  plan = plan_of({"-c", "annotation", "-p", "step", "--capture-range-end", "repeat"});
  EXPECT_EQ(plan.annotation_domain, "");
  EXPECT_EQ(plan.range_limit, 0u);
  EXPECT_EQ(plan_of({"-c", "profiler-api", "--capture-range-end", "repeat-shutdown:2"}).range_end,
            RangeEnd::RepeatShutdown);
  EXPECT_EQ(plan_of({"-c", "profiler-api", "--capture-range-end", "stop"}).range_end,
            RangeEnd::Stop);
  for (const char *bad : {"repeat-shutdown", "stop:2", "repeat:x", "again"})
    EXPECT_NE(error_of({"-c", "profiler-api", "--capture-range-end", bad}), "no error") << bad;
  EXPECT_EQ(error_of({"-p", "x"}), "--annotation-capture needs --capture-range annotation");
  EXPECT_EQ(error_of({"-c", "annotation", "-p", "x@"}),
            "--annotation-capture 'x@': expected NAME or NAME@DOMAIN");
  EXPECT_EQ(error_of({"-c", "profiler-api", "--profile-from-start", "off"}).substr(0, 60),
            "--capture-range and --profile-from-start off cannot be used ");
}

TEST(CapturePlan, RotationNeedsADurationAndNoRange) {
  EXPECT_EQ(plan_of({"-d", "1", "--trace-rotation", "3"}).rotation, 3u);
  EXPECT_EQ(error_of({"--trace-rotation", "3"}), "--trace-rotation needs --duration");
  EXPECT_EQ(error_of({"-d", "1", "--trace-rotation", "3", "-c", "profiler-api"}),
            "--trace-rotation cannot be used with --capture-range or --capture-steps");
}

TEST(CapturePlan, CaptureStepsAtAStep) {
  CapturePlan plan = plan_of({"--capture-steps", "3"});
  EXPECT_EQ(plan.range, CaptureRange::Steps);
  EXPECT_EQ(plan.step_count, 3u);
  EXPECT_EQ(plan.at_step, 0u) << "prof picks";
  EXPECT_FALSE(plan.collects_at_launch());
  plan = plan_of({"--capture-steps", "2", "--at-step", "40", "--capture-range-end", "stop"});
  EXPECT_EQ(plan.at_step, 40u);
  EXPECT_EQ(plan.range_end, RangeEnd::Stop);
  EXPECT_EQ(error_of({"--at-step", "4"}),
            "--at-step needs --capture-steps K: it names the first of K steps");
  EXPECT_EQ(error_of({"--capture-steps", "2", "-c", "profiler-api"}),
            "--capture-steps cannot be used with --capture-range: the steps open and close the "
            "window");
  EXPECT_EQ(error_of({"--capture-steps", "2", "--profile-from-start", "off"}).substr(0, 60),
            "--capture-steps and --profile-from-start off cannot be used ");
  EXPECT_NE(error_of({"--capture-steps", "0"}), "no error");
  EXPECT_NE(error_of({"--capture-steps", "2", "--at-step", "0"}), "no error");
  EXPECT_NE(error_of({"--capture-steps", "x"}), "no error");
}

TEST(CapturePlan, InteractiveMode) {
  const CapturePlan plan = plan_of({"--dynamic", "on", "--dynamic-timeout", "5"});
  EXPECT_TRUE(plan.interactive);
  EXPECT_FALSE(plan.collects_at_launch());
  EXPECT_EQ(plan.prompt_timeout, std::chrono::seconds(5));
  EXPECT_EQ(plan_of({"--dynamic", "on"}).prompt_timeout, std::chrono::minutes(30));
  EXPECT_EQ(error_of({"--dynamic-timeout", "5"}), "--dynamic-timeout needs --dynamic on");
}

TEST(ApplicationEnvironment, EntriesAndInheritance) {
  const auto env = application_environment(
      cli::parse_arguments({"-e", "A=1,B_2=x=y,C=", "-n", "false", "./app"}));
  EXPECT_EQ(env.variables, (std::vector<std::string>{"A=1", "B_2=x=y", "C="}));
  EXPECT_FALSE(env.inherit);
  EXPECT_TRUE(application_environment(cli::parse_arguments({"./app"})).inherit);
  for (const char *bad : {"A", "=1", "1A=2", "A-B=1", "A=1,,B=2"})
    EXPECT_THROW(application_environment(cli::parse_arguments({"-e", bad, "./app"})),
                 cli::UsageError)
        << bad;
}

TEST(ApplicationEnvironment, QuietHidesTheApplicationUnlessAskedToShowIt) {
  const auto shown = [](std::vector<std::string> args) {
    args.push_back("./app");
    return application_environment(cli::parse_arguments(args)).show_output;
  };
  EXPECT_TRUE(shown({}));
  EXPECT_FALSE(shown({"--quiet"}));
  EXPECT_TRUE(shown({"--quiet", "--print-app-log"}));
  EXPECT_TRUE(shown({"--quiet", "--show-output", "true"}));
  EXPECT_TRUE(shown({"--print-app-log"}));
  EXPECT_FALSE(shown({"--show-output", "false"}));
}

} // namespace
} // namespace prof::tool
