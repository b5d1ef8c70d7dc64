// The nic sampler on a prepared sysfs tree and on /proc/net/dev texts:
// parsing, device filtering, rates between two ticks, devices that come and go.
#include "device_filter.hpp"
#include "nic_sampler.hpp"
#include "proc_net_dev_reader.hpp"
#include "sysfs_tree.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

namespace prof::nic {
namespace {

using prof::testing::NetdevValues;
using prof::testing::RdmaValues;
using prof::testing::SysfsTree;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr uint64_t kSecond = 1'000'000'000;

DeviceFilter filter(std::string_view include, bool loopback = false) {
  auto parsed = DeviceFilter::parse(include, loopback);
  if (auto *error = std::get_if<std::string>(&parsed)) ADD_FAILURE() << *error;
  return std::get<DeviceFilter>(std::move(parsed));
}

/// Metrics of a take() by device name, copied out.
std::map<std::string, MetricSet> take(NicSampler &sampler, uint64_t now_ns) {
  std::vector<DeviceMetrics> out;
  sampler.take(now_ns, out);
  std::map<std::string, MetricSet> by_name;
  for (const DeviceMetrics &device : out)
    by_name[std::string(device.name)] = device.metrics;
  return by_name;
}

SamplerOptions sysfs_options(const SysfsTree &tree) {
  SamplerOptions options;
  options.sysfs_root = tree.root();
  options.netdev_stats = NetdevStats::kSysfs;
  options.rescan_interval_ns = 0; // look for new devices at every tick
  return options;
}

TEST(NicDeviceFilter, IncludeRegexesMatchAnywhereInTheName) {
  const DeviceFilter f = filter("bond, ^eth[0-9]$");
  EXPECT_TRUE(f.keeps("bond0", false));
  EXPECT_TRUE(f.keeps("mybond", false));
  EXPECT_TRUE(f.keeps("eth3", false));
  EXPECT_FALSE(f.keeps("eth10", false));
  EXPECT_FALSE(f.keeps("ib0", false));
  const DeviceFilter all = filter("");
  EXPECT_TRUE(all.keeps("anything", false));
  EXPECT_FALSE(all.keeps("lo", true)) << "loopback needs loopback=true";
  EXPECT_TRUE(filter("", true).keeps("lo", true));
}

TEST(NicDeviceFilter, APatternNamingALoopbackDeviceIncludesIt) {
  EXPECT_TRUE(filter("lo").keeps("lo", true));
  EXPECT_TRUE(filter("eth0,lo").keeps("lo", true));
  EXPECT_TRUE(filter("^l.$").keeps("lo", true));
  EXPECT_FALSE(filter("o").keeps("lo", true)) << "a part of the name does not name it";
  EXPECT_TRUE(filter("o").keeps("bond0", false));
  EXPECT_TRUE(filter("o", true).keeps("lo", true)) << "loopback=true keeps every loopback";
}

TEST(NicDeviceFilter, BadRegexIsNamed) {
  auto parsed = DeviceFilter::parse("eth,a[,bond", false);
  ASSERT_TRUE(std::holds_alternative<std::string>(parsed));
  EXPECT_THAT(std::get<std::string>(parsed),
              StartsWith("nic: include: bad regular expression \"a[\": "));
}

TEST(NicProcNetDev, ParsesEveryInterfaceLine) {
  const std::string text =
      "Inter-|   Receive                                                |  Transmit\n"
      " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
      "drop fifo colls carrier compressed\n"
      "    lo:    3267      29    0    0    0     0          0         0     3267      29    0    "
      "0    0     0       0          0\n"
      "  eth0: 19010344     618    0    0    0     0          0         0    28766     349    0  "
      "  0    0     0       0          0\n"
      "veth-long-name:18446744073709551615 1 0 0 0 0 0 0 2 3 0 0 0 0 0 0\n"
      "broken: 12 x\n";
  std::vector<ProcNetDevLine> lines;
  parse_proc_net_dev(text, lines);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].name, "lo");
  EXPECT_EQ(lines[1].name, "eth0");
  EXPECT_EQ(lines[1].counters[kRxBytes], 19010344u);
  EXPECT_EQ(lines[1].counters[kRxPackets], 618u);
  EXPECT_EQ(lines[1].counters[kTxBytes], 28766u);
  EXPECT_EQ(lines[1].counters[kTxPackets], 349u);
  EXPECT_FALSE(lines[1].counters[kCnpSent]);
  EXPECT_EQ(lines[2].name, "veth-long-name");
  EXPECT_EQ(lines[2].counters[kRxBytes], 18446744073709551615ull);
  EXPECT_EQ(lines[2].counters[kTxPackets], 3u);
}

TEST(NicProcNetDev, ReadsAFileKeptOpen) {
  SysfsTree tree;
  const std::string header = "Inter-| Receive | Transmit\n face |bytes packets|bytes packets\n";
  tree.write("net/dev", header + "  eth0: 100 1 0 0 0 0 0 0 200 2 0 0 0 0 0 0\n"
                                 "    lo: 5 1 0 0 0 0 0 0 5 1 0 0 0 0 0 0\n");
  SamplerOptions options;
  options.sysfs_root = tree.root(); // no class/net: "lo" is loopback by name
  options.proc_net_dev = tree.root() + "/net/dev";
  NicSampler sampler(filter(""), options);
  ASSERT_FALSE(sampler.open_error());
  EXPECT_TRUE(take(sampler, kSecond).empty()) << "the first tick only primes";
  tree.write("net/dev", header + "  eth0: 1100 11 0 0 0 0 0 0 400 4 0 0 0 0 0 0\n"
                                 "    lo: 9 2 0 0 0 0 0 0 9 2 0 0 0 0 0 0\n");
  const auto metrics = take(sampler, 3 * kSecond);
  ASSERT_EQ(metrics.size(), 1u) << "lo is left out";
  const MetricSet &eth0 = metrics.at("eth0");
  EXPECT_DOUBLE_EQ(*eth0[kRxRate], 500.0);
  EXPECT_DOUBLE_EQ(*eth0[kTxRate], 100.0);
  EXPECT_DOUBLE_EQ(*eth0[kRxPacketSize], 100.0);
  EXPECT_DOUBLE_EQ(*eth0[kTxPacketSize], 100.0);
  EXPECT_THAT(sampler.all_names(), ElementsAre("eth0", "lo"));
}

TEST(NicProcNetDev, MissingFileIsAnOpenError) {
  SamplerOptions options;
  options.proc_net_dev = "/nonexistent/net/dev";
  NicSampler sampler(filter(""), options);
  ASSERT_TRUE(sampler.open_error());
  EXPECT_EQ(*sampler.open_error(), "cannot open /nonexistent/net/dev: No such file or directory");
}

TEST(NicSampler, NetdevAndRdmaRatesOnAPreparedTree) {
  SysfsTree tree;
  tree.set_netdev("eth0", {1000, 2000, 10, 20});
  tree.set_netdev("lo", {5, 5, 1, 1}, 772);
  tree.set_rdma("mlx5_0", 1, {100, 200, 1, 2, 50, 3, 4});
  tree.set_rdma("mlx5_1", 1, {0, 0, 0, 0, 0}, /*hw_counters=*/false);
  NicSampler sampler(filter(""), sysfs_options(tree));
  EXPECT_TRUE(take(sampler, 10 * kSecond).empty());

  // Half a second later: known increments.
  tree.set_netdev("eth0", {1000 + 15000, 2000 + 3000, 10 + 10, 20 + 6});
  tree.set_netdev("lo", {500, 500, 2, 2}, 772);
  tree.set_rdma("mlx5_0", 1, {100 + 2500, 200 + 500, 1 + 10, 2 + 5, 50 + 1000, 3 + 6, 4 + 2});
  tree.set_rdma("mlx5_1", 1, {4, 0, 1, 0, 0}, false);
  const auto metrics = take(sampler, 10 * kSecond + kSecond / 2);
  ASSERT_EQ(metrics.size(), 3u);
  EXPECT_FALSE(metrics.count("lo"));

  const MetricSet &eth0 = metrics.at("eth0");
  EXPECT_DOUBLE_EQ(*eth0[kRxRate], 30000.0);
  EXPECT_DOUBLE_EQ(*eth0[kTxRate], 6000.0);
  EXPECT_DOUBLE_EQ(*eth0[kRxPacketSize], 1500.0);
  EXPECT_DOUBLE_EQ(*eth0[kTxPacketSize], 500.0);
  EXPECT_FALSE(eth0[kCnpSendRate]);

  const MetricSet &ib = metrics.at("mlx5_0 port 1");
  EXPECT_DOUBLE_EQ(*ib[kRxRate], 20000.0) << "2500 words of 4 bytes in 0.5 s";
  EXPECT_DOUBLE_EQ(*ib[kTxRate], 4000.0);
  EXPECT_DOUBLE_EQ(*ib[kRxPacketSize], 1000.0);
  EXPECT_DOUBLE_EQ(*ib[kTxPacketSize], 400.0);
  EXPECT_DOUBLE_EQ(*ib[kSendWait], 2000.0);
  EXPECT_DOUBLE_EQ(*ib[kCnpSendRate], 12.0);
  EXPECT_DOUBLE_EQ(*ib[kCnpHandleRate], 4.0);

  const MetricSet &plain = metrics.at("mlx5_1 port 1");
  EXPECT_DOUBLE_EQ(*plain[kRxRate], 32.0);
  EXPECT_FALSE(plain[kCnpSendRate]) << "no hw_counters";
  EXPECT_FALSE(plain[kCnpHandleRate]);

  EXPECT_THAT(sampler.all_names(), ElementsAre("eth0", "lo", "mlx5_0 (rdma)", "mlx5_1 (rdma)"));
}

TEST(NicSampler, WrapsAndResetsBetweenTicks) {
  SysfsTree tree;
  tree.set_netdev("eth0", {4294967000u, 10'000'000'000ull, 100, 100});
  tree.set_rdma("mlx5_0", 1, {4294967295u, 4294967290u, 0, 0, 0});
  NicSampler sampler(filter(""), sysfs_options(tree));
  take(sampler, kSecond);
  tree.set_netdev("eth0", {200, 700, 104, 101});         // rx wrapped at 2^32, tx reset
  tree.set_rdma("mlx5_0", 1, {4294967295u, 5, 0, 0, 0}); // rx saturated, tx wrapped
  const auto metrics = take(sampler, 2 * kSecond);
  EXPECT_DOUBLE_EQ(*metrics.at("eth0")[kRxRate], 496.0);
  EXPECT_DOUBLE_EQ(*metrics.at("eth0")[kRxPacketSize], 124.0);
  EXPECT_DOUBLE_EQ(*metrics.at("eth0")[kTxRate], 700.0);
  EXPECT_FALSE(metrics.at("mlx5_0 port 1")[kRxRate]) << "a saturated counter tells nothing";
  EXPECT_DOUBLE_EQ(*metrics.at("mlx5_0 port 1")[kTxRate], 44.0) << "11 words";
}

TEST(NicSampler, IncludeFilterAndLoopback) {
  SysfsTree tree;
  tree.set_netdev("eth0", {});
  tree.set_netdev("bond0", {});
  tree.set_netdev("lo", {}, 772);
  tree.set_rdma("mlx5_0", 1, {});
  tree.set_rdma("bnxt_re0", 1, {});
  NicSampler sampler(filter("bond,mlx5", /*loopback=*/true), sysfs_options(tree));
  take(sampler, kSecond);
  std::vector<std::string> names;
  for (const auto &[name, metrics] : take(sampler, 2 * kSecond))
    names.push_back(name);
  EXPECT_THAT(names, ElementsAre("bond0", "mlx5_0 port 1"));

  NicSampler with_lo(filter("", true), sysfs_options(tree));
  take(with_lo, kSecond);
  EXPECT_TRUE(take(with_lo, 2 * kSecond).count("lo"));
}

TEST(NicSampler, DevicesThatComeAndGo) {
  SysfsTree tree;
  tree.set_netdev("eth0", {0, 0, 0, 0});
  NicSampler sampler(filter(""), sysfs_options(tree));
  take(sampler, 1 * kSecond);
  tree.set_netdev("veth1", {1000, 0, 1, 0});
  auto metrics = take(sampler, 2 * kSecond);
  EXPECT_TRUE(metrics.count("eth0"));
  EXPECT_FALSE(metrics.count("veth1")) << "a new device primes first";
  tree.set_netdev("veth1", {3000, 0, 2, 0});
  metrics = take(sampler, 3 * kSecond);
  EXPECT_DOUBLE_EQ(*metrics.at("veth1")[kRxRate], 2000.0);

  tree.remove_netdev("veth1");
  metrics = take(sampler, 4 * kSecond);
  EXPECT_FALSE(metrics.count("veth1"));
  EXPECT_TRUE(metrics.count("eth0"));
  // Back with counters from zero: no rate across its absence.
  tree.set_netdev("veth1", {10, 0, 1, 0});
  EXPECT_FALSE(take(sampler, 5 * kSecond).count("veth1"));
  tree.set_netdev("veth1", {20, 0, 2, 0});
  EXPECT_DOUBLE_EQ(*take(sampler, 6 * kSecond).at("veth1")[kRxRate], 10.0);
}

TEST(NicSampler, ResetPrimesAgain) {
  SysfsTree tree;
  tree.set_netdev("eth0", {0, 0, 0, 0});
  NicSampler sampler(filter(""), sysfs_options(tree));
  take(sampler, kSecond);
  EXPECT_TRUE(take(sampler, 2 * kSecond).count("eth0"));
  sampler.reset();
  tree.set_netdev("eth0", {1'000'000, 0, 1, 0});
  EXPECT_TRUE(take(sampler, 10 * kSecond).empty());
  EXPECT_DOUBLE_EQ(*take(sampler, 11 * kSecond).at("eth0")[kRxRate], 0.0);
}

} // namespace
} // namespace prof::nic
