// Netdev counters from sysfs: <class/net>/IF/statistics/{rx,tx}_{bytes,packets},
// each file kept open and re-read with pread().
#ifndef PROF_PLUGINS_NIC_SYSFS_NETDEV_READER_HPP
#define PROF_PLUGINS_NIC_SYSFS_NETDEV_READER_HPP

#include "device_filter.hpp"
#include "file_set_reader.hpp"

namespace prof::nic {

class SysfsNetdevReader final : public FileSetReader {
public:
  /// `class_net_dir` is normally "/sys/class/net".
  SysfsNetdevReader(std::string class_net_dir, const DeviceFilter &filter)
      : class_net_dir_(std::move(class_net_dir)), filter_(filter) {}

  void rescan() override;

private:
  std::string class_net_dir_;
  const DeviceFilter &filter_;
};

} // namespace prof::nic

#endif
