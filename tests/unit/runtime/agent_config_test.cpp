#include "core/runtime/agent_config.hpp"

#include <gtest/gtest.h>

using prof::core::AgentConfig;

TEST(AgentConfig, RoundTripsEveryFieldWhateverItHolds) {
  AgentConfig config;
  config.session = "run 1";
  config.target_pid = 4242;
  config.command = "python3 -c 'print(\"a b\")'\n100%";
  config.host = "node-7";
  config.plugins.push_back(
      {"osrt", "/opt/prof/lib/libprof-osrt.so", {{"threshold", "500"}, {"x", ""}}});
  config.plugins.push_back({"other", "/p a/t.so", {}});
  config.step_marker_name = "train step";
  config.step_marker_domain = "*";
  config.answers_dumps = true;
  config.stall_ns = 5'000'000'000;
  std::string error;
  auto back = AgentConfig::decode(config.encode(), &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->session, config.session);
  EXPECT_EQ(back->target_pid, 4242);
  EXPECT_EQ(back->command, config.command);
  EXPECT_EQ(back->host, config.host);
  ASSERT_EQ(back->plugins.size(), 2u);
  EXPECT_EQ(back->plugins[0].options, config.plugins[0].options);
  EXPECT_EQ(back->plugins[1].path, "/p a/t.so");
  EXPECT_EQ(back->step_marker_name, "train step");
  EXPECT_EQ(back->step_marker_domain, "*");
  EXPECT_TRUE(back->answers_dumps);
  EXPECT_EQ(back->stall_ns, 5'000'000'000u);
  EXPECT_FALSE(AgentConfig::decode(AgentConfig{}.encode(), &error)->answers_dumps);
}

TEST(AgentConfig, RefusesWhatItDoesNotUnderstand) {
  std::string error;
  EXPECT_FALSE(AgentConfig::decode("", &error));
  EXPECT_EQ(error, "agent configuration is empty");
  EXPECT_FALSE(AgentConfig::decode("prof-agent-config 9\n", &error));
  EXPECT_EQ(error, "agent configuration has an unknown format");
  EXPECT_FALSE(AgentConfig::decode("prof-agent-config 1\nsession a b\n", &error));
  EXPECT_EQ(error, "agent configuration line 2 is malformed");
  EXPECT_FALSE(AgentConfig::decode("prof-agent-config 1\noption p k v\n", &error));
  EXPECT_FALSE(AgentConfig::decode("prof-agent-config 1\nhost %4\n", &error));
  EXPECT_FALSE(AgentConfig::decode("prof-agent-config 1\nstall 5s\n", &error));
  EXPECT_FALSE(AgentConfig::decode("prof-agent-config 1\nstall -1\n", &error));
  EXPECT_FALSE(AgentConfig::decode("prof-agent-config 1\nstall 99999999999999999999\n", &error));
}
