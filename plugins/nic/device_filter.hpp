// Which devices the nic source samples: the `include` regexes and the
// `loopback` switch.
#ifndef PROF_PLUGINS_NIC_DEVICE_FILTER_HPP
#define PROF_PLUGINS_NIC_DEVICE_FILTER_HPP

#include <regex>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace prof::nic {

class DeviceFilter {
public:
  /// Parses `include`: comma-separated ECMAScript regexes, empty for every
  /// device. Returns the error text (naming the bad regex) on failure.
  static std::variant<DeviceFilter, std::string> parse(std::string_view include, bool loopback);

  /// True when `name` matches some include regex (anywhere in the name, as
  /// asys does: "bond" keeps bond0). A loopback device is kept with
  /// `loopback`, or when a regex matches its whole name ("lo"); without
  /// include regexes it is left out by default.
  bool keeps(std::string_view name, bool is_loopback) const;

  /// The include text as given, for messages.
  const std::string &include_text() const { return include_text_; }
  bool loopback() const { return loopback_; }

private:
  std::vector<std::regex> include_;
  std::string include_text_;
  bool loopback_ = false;
};

/// True when netdev `name` is a loopback device: its sysfs `type` (in
/// `class_net_dir`, e.g. "/sys/class/net") is ARPHRD_LOOPBACK, or, when that
/// cannot be read, its name is "lo".
bool is_loopback_netdev(const std::string &class_net_dir, std::string_view name);

} // namespace prof::nic

#endif
