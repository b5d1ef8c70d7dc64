// RDMA port counters from sysfs: <class/infiniband>/DEV/ports/N/counters and
// hw_counters, each file kept open and re-read with pread(). One device per
// port, named "DEV port N"; the include filter matches DEV.
#ifndef PROF_PLUGINS_NIC_RDMA_READER_HPP
#define PROF_PLUGINS_NIC_RDMA_READER_HPP

#include "device_filter.hpp"
#include "file_set_reader.hpp"

namespace prof::nic {

/// Track name of port `port` of RDMA device `device`.
std::string rdma_port_name(std::string_view device, std::string_view port);

class RdmaReader final : public FileSetReader {
public:
  /// `class_infiniband_dir` is normally "/sys/class/infiniband"; it need not exist.
  RdmaReader(std::string class_infiniband_dir, const DeviceFilter &filter)
      : dir_(std::move(class_infiniband_dir)), filter_(filter) {}

  void rescan() override;

private:
  std::string dir_;
  const DeviceFilter &filter_;
};

} // namespace prof::nic

#endif
