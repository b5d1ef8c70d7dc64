// The built nic plugin driven through its vtable by a fake host, against a
// prepared sysfs tree whose counters the test raises while it samples.
#include "counter_values.hpp"
#include "nic_plugin.hpp"
#include "sysfs_tree.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>

namespace prof {
namespace {

using prof::testing::FakeSourceHost;
using prof::testing::integrate;
using prof::testing::median_nonzero;
using prof::testing::NetdevValues;
using prof::testing::NicPlugin;
using prof::testing::RdmaValues;
using prof::testing::SysfsTree;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;
using namespace std::chrono_literals;

const prof_option_desc *find_option(const prof_plugin_descriptor &d, const char *name) {
  for (uint32_t i = 0; i < d.option_count; ++i)
    if (std::strcmp(d.options[i].name, name) == 0) return &d.options[i];
  return nullptr;
}

/// Waits until `done()` or 5 s pass.
template <class Done> bool wait_for(Done done) {
  const auto until = std::chrono::steady_clock::now() + 5s;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

TEST(NicPluginLoadTest, Descriptor) {
  NicPlugin plugin;
  ASSERT_NE(plugin.descriptor(), nullptr);
  const prof_plugin_descriptor &d = *plugin.descriptor();
  EXPECT_STREQ(d.name, "nic");
  EXPECT_EQ(d.kind, PROF_KIND_SOURCE);
  EXPECT_EQ(d.scope, PROF_SCOPE_SYSTEM);
  EXPECT_EQ(d.abi_major, PROF_ABI_MAJOR);
  ASSERT_NE(d.source, nullptr);
  const prof_option_desc *frequency = find_option(d, "frequency");
  ASSERT_NE(frequency, nullptr);
  EXPECT_EQ(frequency->type, PROF_OPTION_INT);
  EXPECT_STREQ(frequency->default_value, "1000");
  EXPECT_EQ(frequency->min, 1);
  EXPECT_EQ(frequency->max, 100000);
  const prof_option_desc *include = find_option(d, "include");
  ASSERT_NE(include, nullptr);
  EXPECT_EQ(include->type, PROF_OPTION_STRING);
  const prof_option_desc *root = find_option(d, "sysfs-root");
  ASSERT_NE(root, nullptr);
  EXPECT_STREQ(root->default_value, "/sys");
  const prof_option_desc *loopback = find_option(d, "loopback");
  ASSERT_NE(loopback, nullptr);
  EXPECT_EQ(loopback->type, PROF_OPTION_BOOL);
  EXPECT_STREQ(loopback->default_value, "false");
}

TEST(NicPluginLoadTest, BadRegexIsAConfigureError) {
  SysfsTree tree;
  tree.set_netdev("eth0", {});
  FakeSourceHost host;
  host.set_option("sysfs-root", tree.root());
  host.set_option("include", "eth,(bond");
  NicPlugin plugin;
  ASSERT_TRUE(plugin.create(host));
  EXPECT_EQ(plugin.configure(), PROF_ERROR);
  ASSERT_EQ(host.logs(PROF_LOG_ERROR).size(), 1u);
  EXPECT_THAT(host.logs(PROF_LOG_ERROR)[0],
              StartsWith("nic: include: bad regular expression \"(bond\": "));
}

TEST(NicPluginLoadTest, NoMatchingDeviceListsThoseFound) {
  SysfsTree tree;
  tree.set_netdev("eth0", {});
  tree.set_netdev("lo", {}, 772);
  tree.set_rdma("mlx5_0", 1, {});
  FakeSourceHost host;
  host.set_option("sysfs-root", tree.root() + "/");
  host.set_option("include", "^bond");
  NicPlugin plugin;
  ASSERT_TRUE(plugin.create(host));
  EXPECT_EQ(plugin.configure(), PROF_ERROR);
  ASSERT_EQ(host.logs(PROF_LOG_ERROR).size(), 1u);
  EXPECT_EQ(host.logs(PROF_LOG_ERROR)[0],
            "nic: no network device matches include=\"^bond\" (a loopback device needs a "
            "pattern naming it, e.g. \"lo\", or loopback=true); devices found: eth0, lo, "
            "mlx5_0 (rdma)");
}

TEST(NicPluginLoadTest, IncludeLoSamplesTheLoopbackDevice) {
  SysfsTree tree;
  tree.set_netdev("eth0", {});
  tree.set_netdev("lo", {}, 772);
  FakeSourceHost host;
  host.set_option("sysfs-root", tree.root());
  host.set_option("include", "lo");
  NicPlugin plugin;
  ASSERT_TRUE(plugin.create(host));
  ASSERT_EQ(plugin.configure(), PROF_OK) << ::testing::PrintToString(host.logs(PROF_LOG_ERROR));
  ASSERT_EQ(plugin.start(), PROF_OK);
  EXPECT_TRUE(wait_for([&] { return host.counter_track("lo", "RX rate").has_value(); }));
  ASSERT_EQ(plugin.stop(), PROF_OK);
  EXPECT_FALSE(host.counter_track("eth0", "RX rate"));
}

TEST(NicPluginLoadTest, StartWithoutConfigureFails) {
  FakeSourceHost host;
  NicPlugin plugin;
  ASSERT_TRUE(plugin.create(host));
  EXPECT_EQ(plugin.start(), PROF_ERROR);
  EXPECT_EQ(host.logs(PROF_LOG_ERROR).at(0), "nic: start before a successful configure");
}

TEST(NicPluginLoadTest, FrequencyAboveWhatTheMachineSustainsIsLowered) {
  SysfsTree tree;
  tree.set_netdev("eth0", {});
  FakeSourceHost host;
  host.set_option("sysfs-root", tree.root());
  host.set_option("frequency", "100000");
  NicPlugin plugin;
  ASSERT_TRUE(plugin.create(host));
  ASSERT_EQ(plugin.configure(), PROF_OK);
  // One tick with its wake-up costs well over the 1.5 us that 100 kHz within 15% allows.
  ASSERT_EQ(host.logs(PROF_LOG_WARN).size(), 1u);
  EXPECT_THAT(host.logs(PROF_LOG_WARN)[0],
              MatchesRegex("nic: frequency 100000 Hz lowered to [0-9]+ Hz: one sample costs "
                           "[0-9.]+ us of CPU here, and sampling may use at most 15% of one "
                           "core"));
}

TEST(NicPluginLoadTest, SamplesAPreparedTreeWhileItsCountersRise) {
  SysfsTree tree;
  NetdevValues eth{1000, 1000, 10, 10};
  RdmaValues ib{0, 0, 0, 0, 0, 0, 0};
  tree.set_netdev("eth0", eth);
  tree.set_netdev("lo", {}, 772);
  tree.set_rdma("mlx5_0", 1, ib);
  FakeSourceHost host;
  host.set_option("sysfs-root", tree.root());
  host.set_option("frequency", "200");
  NicPlugin plugin;
  ASSERT_TRUE(plugin.create(host));
  ASSERT_EQ(plugin.configure(), PROF_OK) << ::testing::PrintToString(host.logs(PROF_LOG_ERROR));
  EXPECT_TRUE(host.logs(PROF_LOG_WARN).empty());
  ASSERT_EQ(plugin.start(), PROF_OK);

  // Counters rise only once a first rate shows a baseline was read.
  ASSERT_TRUE(wait_for([&] { return host.counter_track("eth0", "RX rate").has_value(); }));
  constexpr int kSteps = 20;
  for (int i = 0; i < kSteps; ++i) {
    eth.rx_bytes += 1500 * 4, eth.rx_packets += 4;
    eth.tx_bytes += 100, eth.tx_packets += 1;
    ib.rcv_data_words += 256, ib.rcv_packets += 1;
    ib.cnp_sent += 2, ib.xmit_wait += 10;
    tree.set_netdev("eth0", eth);
    tree.set_rdma("mlx5_0", 1, ib);
    std::this_thread::sleep_for(3ms);
  }
  std::this_thread::sleep_for(15ms);
  ASSERT_EQ(plugin.stop(), PROF_OK);
  const size_t before_flush = host.counters().size();
  ASSERT_EQ(plugin.flush(), PROF_OK);
  EXPECT_GT(host.counters().size(), before_flush) << "flush emits a final sample";

  // One network track per device, counters under it with their units.
  for (const char *device : {"eth0", "mlx5_0 port 1"}) {
    for (const auto &[name, unit] : {std::pair{"RX rate", "bytes/s"},
                                     {"TX rate", "bytes/s"},
                                     {"RX avg packet size", "bytes"},
                                     {"TX avg packet size", "bytes"}}) {
      const auto track = host.counter_track(device, name);
      ASSERT_TRUE(track) << device << " / " << name;
      EXPECT_EQ(track->unit, unit);
    }
  }
  EXPECT_FALSE(host.counter_track("lo", "RX rate")) << "loopback is off by default";
  EXPECT_FALSE(host.counter_track("eth0", "CNP send rate"));
  for (const char *name : {"CNP send rate", "CNP handle rate", "Send wait"})
    EXPECT_EQ(host.counter_track("mlx5_0 port 1", name)->unit, "/s") << name;

  const auto total = [&](const char *device, const char *name) {
    return integrate(host.values(host.counter_track(device, name)->id));
  };
  EXPECT_NEAR(total("eth0", "RX rate"), kSteps * 6000.0, 1e-3);
  EXPECT_NEAR(total("eth0", "TX rate"), kSteps * 100.0, 1e-3);
  EXPECT_NEAR(total("mlx5_0 port 1", "RX rate"), kSteps * 1024.0, 1e-3);
  EXPECT_NEAR(total("mlx5_0 port 1", "CNP send rate"), kSteps * 2.0, 1e-6);
  EXPECT_NEAR(total("mlx5_0 port 1", "Send wait"), kSteps * 10.0, 1e-6);
  EXPECT_NEAR(total("mlx5_0 port 1", "CNP handle rate"), 0.0, 1e-9);
  const auto median = [&](const char *device, const char *name) {
    return median_nonzero(host.values(host.counter_track(device, name)->id));
  };
  EXPECT_EQ(median("eth0", "RX avg packet size"), 1500.0);
  EXPECT_EQ(median("eth0", "TX avg packet size"), 100.0);
  EXPECT_EQ(median("mlx5_0 port 1", "RX avg packet size"), 1024.0);
  const auto info = host.logs(PROF_LOG_INFO);
  ASSERT_FALSE(info.empty());
  EXPECT_THAT(info.back(),
              MatchesRegex("nic: [0-9]+ samples at 200 Hz, [0-9]+ missed, [0-9.]+ us of CPU"));
}

TEST(NicPluginLoadTest, SuspendStopsSamplingAndResumeStartsOver) {
  SysfsTree tree;
  NetdevValues eth{};
  tree.set_netdev("eth0", eth);
  FakeSourceHost host;
  host.set_option("sysfs-root", tree.root());
  host.set_option("frequency", "500");
  NicPlugin plugin;
  ASSERT_TRUE(plugin.create(host));
  ASSERT_EQ(plugin.configure(), PROF_OK);
  ASSERT_EQ(plugin.start(), PROF_OK);
  ASSERT_TRUE(wait_for([&] { return host.counter_track("eth0", "RX rate").has_value(); }));
  ASSERT_EQ(plugin.suspend(), PROF_OK);
  std::this_thread::sleep_for(10ms); // a tick under way ends
  const size_t suspended = host.counters().size();
  // Traffic during the pause must not show as a rate after it.
  eth.rx_bytes += 1'000'000'000, eth.rx_packets += 1'000'000;
  tree.set_netdev("eth0", eth);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(host.counters().size(), suspended) << "nothing sampled while suspended";
  ASSERT_EQ(plugin.resume(), PROF_OK);
  ASSERT_TRUE(wait_for([&] { return host.counters().size() > suspended + 8; }));
  const auto begin = std::chrono::steady_clock::now();
  ASSERT_EQ(plugin.stop(), PROF_OK);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 100ms) << "stop is prompt";
  for (const auto &value : host.values(host.counter_track("eth0", "RX rate")->id))
    EXPECT_EQ(value.value, 0.0);
}

TEST(NicPluginLoadTest, DevicesThatAppearAndVanishDuringTheCapture) {
  SysfsTree tree;
  tree.set_netdev("eth0", {});
  FakeSourceHost host;
  host.set_option("sysfs-root", tree.root());
  host.set_option("frequency", "100");
  NicPlugin plugin;
  ASSERT_TRUE(plugin.create(host));
  ASSERT_EQ(plugin.configure(), PROF_OK);
  ASSERT_EQ(plugin.start(), PROF_OK);
  tree.set_netdev("veth9", {0, 0, 0, 0});
  // Devices are looked for once a second.
  ASSERT_TRUE(wait_for([&] { return host.counter_track("veth9", "RX rate").has_value(); }));
  tree.remove_netdev("eth0");
  const auto eth0 = host.counter_track("eth0", "RX rate")->id;
  std::this_thread::sleep_for(1200ms);
  const size_t eth0_values = host.values(eth0).size();
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(host.values(eth0).size(), eth0_values) << "eth0 is no longer sampled";
  ASSERT_EQ(plugin.stop(), PROF_OK);
  EXPECT_TRUE(host.logs(PROF_LOG_ERROR).empty());
}

} // namespace
} // namespace prof
