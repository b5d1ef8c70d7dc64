// A prepared tree of sysfs counters in a temporary folder: netdev
// statistics and InfiniBand port counters, rewritten in place (same inode)
// so a reader holding the files open sees the new values.
#ifndef PROF_TESTS_NIC_SYSFS_TREE_HPP
#define PROF_TESTS_NIC_SYSFS_TREE_HPP

#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace prof::testing {

struct NetdevValues {
  uint64_t rx_bytes = 0, tx_bytes = 0, rx_packets = 0, tx_packets = 0;
};

struct RdmaValues {
  uint64_t rcv_data_words = 0, xmit_data_words = 0, rcv_packets = 0, xmit_packets = 0;
  uint64_t xmit_wait = 0, cnp_sent = 0, cnp_handled = 0;
};

class SysfsTree {
public:
  SysfsTree() = default;
  SysfsTree(const SysfsTree &) = delete;
  SysfsTree &operator=(const SysfsTree &) = delete;

  const std::string &root() const { return root_; }

  /// Writes `text` to root/relative, creating folders, truncating in place.
  void write(const std::string &relative, const std::string &text) const {
    const std::filesystem::path path = std::filesystem::path(root_) / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::trunc) << text;
  }
  /// A counter, right-aligned in a fixed width and written in place with one
  /// pwrite(): a reader never sees the file empty or half written.
  void write(const std::string &relative, uint64_t value) const {
    const std::filesystem::path path = std::filesystem::path(root_) / relative;
    std::filesystem::create_directories(path.parent_path());
    char text[32];
    const int length =
        std::snprintf(text, sizeof text, "%20llu\n", static_cast<unsigned long long>(value));
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || ::pwrite(fd, text, static_cast<size_t>(length), 0) != length)
      ADD_FAILURE() << "cannot write " << path;
    if (fd >= 0) ::close(fd);
  }

  /// class/net/NAME with `type` (1 ether, 772 loopback) and its statistics.
  void set_netdev(const std::string &name, const NetdevValues &v, int type = 1) const {
    const std::string dir = "class/net/" + name + "/";
    write(dir + "type", std::to_string(type) + "\n");
    write(dir + "statistics/rx_bytes", v.rx_bytes);
    write(dir + "statistics/tx_bytes", v.tx_bytes);
    write(dir + "statistics/rx_packets", v.rx_packets);
    write(dir + "statistics/tx_packets", v.tx_packets);
    write(dir + "statistics/rx_errors", 0);
  }
  void remove_netdev(const std::string &name) const {
    std::filesystem::remove_all(std::filesystem::path(root_) / "class/net" / name);
  }

  /// class/infiniband/DEV/ports/PORT/{counters,hw_counters}.
  void set_rdma(const std::string &device, int port, const RdmaValues &v,
                bool hw_counters = true) const {
    const std::string dir = "class/infiniband/" + device + "/ports/" + std::to_string(port) + "/";
    write(dir + "counters/port_rcv_data", v.rcv_data_words);
    write(dir + "counters/port_xmit_data", v.xmit_data_words);
    write(dir + "counters/port_rcv_packets", v.rcv_packets);
    write(dir + "counters/port_xmit_packets", v.xmit_packets);
    write(dir + "counters/port_xmit_wait", v.xmit_wait);
    write(dir + "counters/symbol_error", 0);
    if (!hw_counters) return;
    write(dir + "hw_counters/np_cnp_sent", v.cnp_sent);
    write(dir + "hw_counters/rp_cnp_handled", v.cnp_handled);
    write(dir + "hw_counters/out_of_buffer", 0);
  }

private:
  testing::ScratchDir scratch_{"prof-nic"};
  std::string root_ = scratch_.path();
};

} // namespace prof::testing

#endif
