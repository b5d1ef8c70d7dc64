#include "sysfs_netdev_reader.hpp"

namespace prof::nic {
namespace {

struct StatisticsFile {
  Counter counter;
  const char *file;
};
constexpr StatisticsFile kStatisticsFiles[] = {
    {kRxBytes, "rx_bytes"},
    {kTxBytes, "tx_bytes"},
    {kRxPackets, "rx_packets"},
    {kTxPackets, "tx_packets"},
};

} // namespace

void SysfsNetdevReader::rescan() {
  all_names_ = list_folder(class_net_dir_);
  std::vector<std::unique_ptr<CounterFileSet>> next;
  for (const std::string &name : all_names_) {
    if (auto open = take_open(name)) {
      next.push_back(std::move(open));
      continue;
    }
    if (!filter_.keeps(name, is_loopback_netdev(class_net_dir_, name))) continue;
    auto device = std::make_unique<CounterFileSet>(name, 1);
    const std::string folder = class_net_dir_ + "/" + name + "/statistics/";
    for (const StatisticsFile &stat : kStatisticsFiles)
      device->open(stat.counter, folder + stat.file);
    if (!device->empty()) next.push_back(std::move(device));
  }
  replace_devices(std::move(next));
}

} // namespace prof::nic
