// ABI glue of the nic source: descriptor (its option table is in the header) and entry symbol.
#include "nic_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::nic::NicSource>(
    "nic", "1.0.0",
    "network interface and RDMA port metrics: receive/send rate, packet size, CNPs, send wait",
    PROF_SCOPE_SYSTEM, prof::nic::kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
