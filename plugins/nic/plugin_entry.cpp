// ABI glue of the nic source: option table, vtable and entry symbol.
#include "nic_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
    {"include", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "comma-separated regexes (ECMAScript); a device is sampled if any matches part of its "
     "name; empty: all; asys --nic-device-include"},
    {"frequency", PROF_OPTION_INT, "1000", 1, 100000, nullptr,
     "samples per second (Hz), lowered with a warning to what keeps sampling under 15% of a "
     "core; asys --nic-metrics-frequency"},
    {"sysfs-root", PROF_OPTION_STRING, "/sys", 0, -1, nullptr,
     "where class/net and class/infiniband are read (a prepared tree for tests)"},
    {"loopback", PROF_OPTION_BOOL, "false", 0, -1, nullptr, "also sample loopback devices (lo)"},
    {"netdev-stats", PROF_OPTION_ENUM, "auto", 0, -1, "auto,proc,sysfs",
     "netdev counters from /proc/net/dev (one read for all) or sysfs statistics files; auto: "
     "proc when sysfs-root is /sys"},
};

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<prof::nic::NicSource>(
    "nic", "1.0.0",
    "network interface and RDMA port metrics: receive/send rate, packet size, CNPs, send wait",
    PROF_SCOPE_SYSTEM, kOptions, "prof project");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
