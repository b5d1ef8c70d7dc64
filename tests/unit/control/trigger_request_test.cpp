// Trigger requests: what prof trigger writes reads back the same, and every
// malformed request is refused with what was expected, never acted on.
#include "core/control/trigger_request.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace prof::control {
namespace {

using ::testing::HasSubstr;

TEST(TriggerRequest, WhatIsWrittenReadsBackTheSame) {
  TriggerRequest request;
  request.id = "20261205T091500-3fa2";
  request.capture_steps = 3;
  request.at_step = 120;
  request.options = {"--enable-activities", "*/general/operator", "--plugin", "osrt kind=\"a\""};
  request.output = "/shared/run/r%q{RANK}";
  std::string error;
  const auto parsed = parse_trigger_request(encode_trigger_request(request), &error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(parsed->id, request.id);
  EXPECT_EQ(parsed->capture_steps, 3u);
  EXPECT_EQ(parsed->at_step, 120u);
  EXPECT_EQ(parsed->duration_s, 0);
  EXPECT_EQ(parsed->options, request.options);
  EXPECT_EQ(parsed->output, request.output);
  EXPECT_EQ(trigger_arguments(*parsed),
            (std::vector<std::string>{"--capture-steps", "3", "--at-step", "120",
                                      "--enable-activities", "*/general/operator", "--plugin",
                                      "osrt kind=\"a\"", "-o", "/shared/run/r%q{RANK}"}));
}

TEST(TriggerRequest, ADurationIsABoundToo) {
  std::string error;
  const auto parsed =
      parse_trigger_request(R"({"id":"a","duration_s":2.5,"options":[],"output":"x"})", &error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(trigger_arguments(*parsed), (std::vector<std::string>{"--duration", "2.5", "-o", "x"}));
}

TEST(TriggerRequest, MalformedRequestsSayWhatWasExpected) {
  const std::pair<std::string, std::string> cases[] = {
      {"", "expected"},
      {"{\"id\": 5", "line 1"},
      {"[1]", "expected a JSON object"},
      {R"({"output":"x","capture_steps":1})", "expected an \"id\""},
      {R"({"id":"a/../b","output":"x","capture_steps":1})", "\"id\": expected"},
      {R"({"id":"","output":"x","capture_steps":1})", "\"id\": expected"},
      {R"({"id":"a","capture_steps":1})", "expected an \"output\""},
      {R"({"id":"a","output":"x"})", "nobody is there to stop it"},
      {R"({"id":"a","output":"x","capture_steps":0})", "\"capture_steps\": expected"},
      {R"({"id":"a","output":"x","capture_steps":1.5})", "\"capture_steps\": expected"},
      {R"({"id":"a","output":"x","capture_steps":"3"})", "\"capture_steps\": expected"},
      {R"({"id":"a","output":"x","duration_s":-1})", "\"duration_s\": expected"},
      {R"({"id":"a","output":"x","duration_s":1,"at_step":4})", "\"at_step\" needs"},
      {R"({"id":"a","output":"x","capture_steps":1,"options":"--x"})", "\"options\": expected"},
      {R"({"id":"a","output":"x","capture_steps":1,"options":[1]})", "\"options\": expected"},
      {R"({"id":"a","output":"x","capture_steps":1,"kill":true})", "unknown key \"kill\""},
      {R"({"id":"a","output":"x","capture_steps":1,"id":"b"})", "line 1"},
      {std::string(kTriggerRequestMaxBytes + 1, ' '), "at most"},
      {"{\"id\":\"a\",\"capture_steps\":1,\"output\":\"r\xff\"}", "\"output\": expected"},
      {R"({"id":"a","capture_steps":1,"output":"r\u0000x"})", "\"output\": expected"},
      {R"({"id":"a","capture_steps":1,"output":"r","options":["\n"]})", "\"options\": expected"},
  };
  for (const auto &[text, expected] : cases) {
    std::string error;
    EXPECT_FALSE(parse_trigger_request(text, &error)) << text;
    EXPECT_THAT(error, HasSubstr(expected)) << text;
  }
}

} // namespace
} // namespace prof::control
