#include "rdma_reader.hpp"

namespace prof::nic {
namespace {

struct PortFile {
  Counter counter;
  const char *file; ///< below ports/N/
};
// port_*_data count 4-byte words (IBA PortCounters); the reader says so
// through data_unit_bytes. mlx5 names the CNP counters np_cnp_sent and
// rp_cnp_handled.
constexpr PortFile kPortFiles[] = {
    {kRxBytes, "counters/port_rcv_data"},        {kTxBytes, "counters/port_xmit_data"},
    {kRxPackets, "counters/port_rcv_packets"},   {kTxPackets, "counters/port_xmit_packets"},
    {kXmitWait, "counters/port_xmit_wait"},      {kCnpSent, "hw_counters/np_cnp_sent"},
    {kCnpHandled, "hw_counters/rp_cnp_handled"},
};
constexpr uint32_t kDataWordBytes = 4;

} // namespace

std::string rdma_port_name(std::string_view device, std::string_view port) {
  return std::string(device) + " port " + std::string(port);
}

void RdmaReader::rescan() {
  all_names_ = list_folder(dir_);
  std::vector<std::unique_ptr<CounterFileSet>> next;
  for (const std::string &device : all_names_) {
    if (!filter_.keeps(device, false)) continue;
    const std::string ports_dir = dir_ + "/" + device + "/ports";
    for (const std::string &port : list_folder(ports_dir)) {
      const std::string name = rdma_port_name(device, port);
      if (auto open = take_open(name)) {
        next.push_back(std::move(open));
        continue;
      }
      auto set = std::make_unique<CounterFileSet>(name, kDataWordBytes);
      for (const PortFile &file : kPortFiles)
        set->open(file.counter, ports_dir + "/" + port + "/" + file.file);
      if (!set->empty()) next.push_back(std::move(set));
    }
  }
  replace_devices(std::move(next));
}

} // namespace prof::nic
