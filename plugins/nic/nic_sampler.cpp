#include "nic_sampler.hpp"

#include "proc_net_dev_reader.hpp"
#include "rdma_reader.hpp"
#include "sysfs_netdev_reader.hpp"

#include <cerrno>
#include <cstring>

namespace prof::nic {

NicSampler::NicSampler(DeviceFilter filter, SamplerOptions options)
    : filter_(std::move(filter)), options_(std::move(options)) {
  const std::string class_net = options_.sysfs_root + "/class/net";
  if (options_.netdev_stats == NetdevStats::kProc) {
    auto proc = std::make_unique<ProcNetDevReader>(options_.proc_net_dev, class_net, filter_);
    if (!proc->valid())
      open_error_ = "cannot open " + options_.proc_net_dev + ": " + std::strerror(errno);
    netdev_ = std::move(proc);
  } else {
    netdev_ = std::make_unique<SysfsNetdevReader>(class_net, filter_);
  }
  rdma_ = std::make_unique<RdmaReader>(options_.sysfs_root + "/class/infiniband", filter_);
}

size_t NicSampler::take(uint64_t now_ns, std::vector<DeviceMetrics> &out) {
  out.clear();
  if (!last_rescan_ns_ || now_ns - *last_rescan_ns_ >= options_.rescan_interval_ns) {
    last_rescan_ns_ = now_ns;
    netdev_->rescan();
    rdma_->rescan();
    // Devices gone for a while need no state.
    std::erase_if(states_, [&](const auto &entry) { return entry.second.round + 1 < round_; });
  }
  readings_.clear();
  netdev_->read(readings_);
  rdma_->read(readings_);
  for (const DeviceReading &reading : readings_) {
    auto found = states_.find(reading.name);
    if (found == states_.end())
      found = states_.emplace(std::string(reading.name), DeviceState{}).first;
    DeviceState &state = found->second;
    // Only a device also read at the previous tick has a baseline: one that
    // vanished and came back starts over.
    if (state.round + 1 == round_ && now_ns > state.ns)
      out.push_back(
          DeviceMetrics{found->first, derive_metrics(state.counters, reading.counters,
                                                     now_ns - state.ns, reading.data_unit_bytes)});
    state.counters = reading.counters;
    state.ns = now_ns;
    state.round = round_;
  }
  ++round_;
  return readings_.size();
}

void NicSampler::reset() { round_ += 2; }

std::vector<std::string> NicSampler::all_names() const {
  std::vector<std::string> names;
  for (const std::string &name : netdev_->all_names())
    names.push_back(name);
  for (const std::string &name : rdma_->all_names())
    names.push_back(name + " (rdma)");
  return names;
}

} // namespace prof::nic
