// The nic plugin on a real veth: UDP datagrams of known sizes cross a veth
// pair between two network namespaces the test makes, and the rates the
// plugin emits for one end must add up to exactly the bytes that crossed.
#include "counter_values.hpp"
#include "nic_plugin.hpp"
#include "veth_namespaces.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <thread>

namespace prof {
namespace {

using prof::testing::enter_netns;
using prof::testing::FakeSourceHost;
using prof::testing::integrate;
using prof::testing::median_nonzero;
using prof::testing::NicPlugin;
using prof::testing::VethNamespaces;
using namespace std::chrono_literals;

constexpr uint16_t kPort = 47231;
constexpr int kDatagramsToA = 200, kPayloadToA = 1000;
constexpr int kDatagramsToB = 100, kPayloadToB = 400;
/// What one datagram is on the wire as veth counts it: Ethernet, IPv4, UDP headers.
constexpr int kFrameOverhead = 14 + 20 + 8;

/// A UDP socket made inside namespace `ns` (a socket stays in the namespace
/// it was made in), bound to `address`:kPort; -1 on failure.
int udp_socket_in(const std::string &ns, const char *address) {
  int fd = -1;
  std::thread([&] {
    if (!enter_netns(ns)) return;
    fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in local{};
    local.sin_family = AF_INET;
    local.sin_port = htons(kPort);
    inet_pton(AF_INET, address, &local.sin_addr);
    if (fd >= 0 && bind(fd, reinterpret_cast<sockaddr *>(&local), sizeof local) != 0) {
      close(fd);
      fd = -1;
    }
  }).join();
  return fd;
}

/// Sends `count` datagrams of `size` bytes; how many went out whole.
int send_datagrams(int fd, const char *to, int count, int size) {
  sockaddr_in peer{};
  peer.sin_family = AF_INET;
  peer.sin_port = htons(kPort);
  inet_pton(AF_INET, to, &peer.sin_addr);
  const std::string payload(static_cast<size_t>(size), 'x');
  int sent = 0;
  for (int i = 0; i < count; ++i)
    if (sendto(fd, payload.data(), payload.size(), 0, reinterpret_cast<sockaddr *>(&peer),
               sizeof peer) == size)
      ++sent;
  return sent;
}

template <class Done> bool wait_for(Done done) {
  const auto until = std::chrono::steady_clock::now() + 5s;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

class NicNetnsTest : public ::testing::Test {
protected:
  void SetUp() override {
    const std::string error = veth_.create();
    ASSERT_EQ(error, "") << "this test needs to create network namespaces and a veth pair "
                            "(root, iproute2); it does not skip: "
                         << error;
    sock_a_ = udp_socket_in(veth_.ns_a, VethNamespaces::kAddressA);
    sock_b_ = udp_socket_in(veth_.ns_b, VethNamespaces::kAddressB);
    ASSERT_GE(sock_a_, 0) << "UDP socket in " << veth_.ns_a << ": " << std::strerror(errno);
    ASSERT_GE(sock_b_, 0) << "UDP socket in " << veth_.ns_b << ": " << std::strerror(errno);
    host_.set_option("include", "^" + veth_.veth_a + "$");
    host_.set_option("frequency", "200");
  }
  void TearDown() override {
    if (sock_a_ >= 0) close(sock_a_);
    if (sock_b_ >= 0) close(sock_b_);
  }

  /// Starts the configured plugin, sends the known traffic once it has a baseline, stops it, and
  /// checks that its rates add up to that traffic; then deletes the veth
  /// under a running capture.
  void capture_and_check() {
    ASSERT_EQ(plugin_.start(), PROF_OK);
    ASSERT_TRUE(wait_for([&] { return host_.counter_track(veth_.veth_a, "RX rate").has_value(); }))
        << "no sample of " << veth_.veth_a;
    ASSERT_EQ(send_datagrams(sock_b_, VethNamespaces::kAddressA, kDatagramsToA, kPayloadToA),
              kDatagramsToA);
    ASSERT_EQ(send_datagrams(sock_a_, VethNamespaces::kAddressB, kDatagramsToB, kPayloadToB),
              kDatagramsToB);
    std::this_thread::sleep_for(30ms); // several samples after the last datagram
    ASSERT_EQ(plugin_.stop(), PROF_OK);
    ASSERT_EQ(plugin_.flush(), PROF_OK);

    const auto track = [&](const char *name) {
      return host_.counter_track(veth_.veth_a, name)->id;
    };
    const double rx_frame = kPayloadToA + kFrameOverhead, tx_frame = kPayloadToB + kFrameOverhead;
    EXPECT_NEAR(integrate(host_.values(track("RX rate"))), kDatagramsToA * rx_frame, 1e-3);
    EXPECT_NEAR(integrate(host_.values(track("TX rate"))), kDatagramsToB * tx_frame, 1e-3);
    EXPECT_EQ(median_nonzero(host_.values(track("RX avg packet size"))), rx_frame);
    EXPECT_EQ(median_nonzero(host_.values(track("TX avg packet size"))), tx_frame);

    // The interface vanishing mid-capture just ends its samples.
    ASSERT_EQ(plugin_.start(), PROF_OK);
    std::this_thread::sleep_for(20ms);
    ASSERT_EQ(
        prof::testing::run_command("ip -n " + veth_.ns_a + " link delete " + veth_.veth_a).status,
        0);
    std::this_thread::sleep_for(20ms);
    const size_t after_delete = host_.values(track("RX rate")).size();
    std::this_thread::sleep_for(30ms);
    EXPECT_EQ(host_.values(track("RX rate")).size(), after_delete);
    ASSERT_EQ(plugin_.stop(), PROF_OK);
    ASSERT_EQ(plugin_.flush(), PROF_OK);
    EXPECT_TRUE(host_.logs(PROF_LOG_ERROR).empty());
  }

  VethNamespaces veth_;
  int sock_a_ = -1, sock_b_ = -1;
  FakeSourceHost host_;
  NicPlugin plugin_;
};

// /proc/net/dev (the default on a live system) shows the namespace of the
// process that opens it: configure() runs with this thread in namespace A.
TEST_F(NicNetnsTest, ProcNetDevCountsTheBytesSentOverAVeth) {
  const int home = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(home, 0);
  ASSERT_TRUE(enter_netns(veth_.ns_a));
  ASSERT_TRUE(plugin_.create(host_));
  const prof_status configured = plugin_.configure();
  ASSERT_EQ(setns(home, CLONE_NEWNET), 0) << std::strerror(errno);
  close(home);
  ASSERT_EQ(configured, PROF_OK) << ::testing::PrintToString(host_.logs(PROF_LOG_ERROR));
  capture_and_check();
}

// The sysfs statistics files of namespace A: a sysfs mounted while in A (as
// `ip netns exec` does), in a mount namespace private to this test process.
TEST_F(NicNetnsTest, SysfsCountsTheBytesSentOverAVeth) {
  ASSERT_EQ(unshare(CLONE_NEWNS), 0) << std::strerror(errno);
  ASSERT_EQ(mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr), 0) << std::strerror(errno);
  std::string dir = "/tmp/prof-nic-sysfs-XXXXXX";
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  int mounted = -1;
  std::thread([&] {
    if (enter_netns(veth_.ns_a)) mounted = mount("sysfs", dir.c_str(), "sysfs", 0, nullptr);
  }).join();
  ASSERT_EQ(mounted, 0) << "mount sysfs of " << veth_.ns_a << ": " << std::strerror(errno);
  host_.set_option("sysfs-root", dir);
  ASSERT_TRUE(plugin_.create(host_));
  ASSERT_EQ(plugin_.configure(), PROF_OK) << ::testing::PrintToString(host_.logs(PROF_LOG_ERROR));
  capture_and_check();
  umount2(dir.c_str(), MNT_DETACH);
  rmdir(dir.c_str());
}

} // namespace
} // namespace prof
