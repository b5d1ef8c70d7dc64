#include "device_filter.hpp"

#include "counter_file.hpp"

#include <net/if_arp.h>

namespace prof::nic {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

} // namespace

std::variant<DeviceFilter, std::string> DeviceFilter::parse(std::string_view include,
                                                            bool loopback) {
  DeviceFilter filter;
  filter.include_text_ = std::string(include);
  filter.loopback_ = loopback;
  while (!include.empty()) {
    const size_t comma = include.find(',');
    const std::string_view item = trim(include.substr(0, comma));
    include = comma == std::string_view::npos ? std::string_view() : include.substr(comma + 1);
    if (item.empty()) continue;
    try {
      filter.include_.emplace_back(item.begin(), item.end(), std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
      return "nic: include: bad regular expression \"" + std::string(item) + "\": " + e.what();
    }
  }
  return filter;
}

bool DeviceFilter::keeps(std::string_view name, bool is_loopback) const {
  if (include_.empty()) return !is_loopback || loopback_;
  // A loopback device is left out unless a pattern names it whole ("lo"):
  // "o" keeps bond0, not lo.
  const bool whole_name = is_loopback && !loopback_;
  for (const std::regex &pattern : include_) {
    if (whole_name ? std::regex_match(name.begin(), name.end(), pattern)
                   : std::regex_search(name.begin(), name.end(), pattern))
      return true;
  }
  return false;
}

bool is_loopback_netdev(const std::string &class_net_dir, std::string_view name) {
  const auto type = read_text_file(class_net_dir + "/" + std::string(name) + "/type");
  const auto value = type ? parse_counter(*type) : std::nullopt;
  if (value) return *value == ARPHRD_LOOPBACK;
  return name == "lo";
}

} // namespace prof::nic
