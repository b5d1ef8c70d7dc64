// Fuzzes topsprof's filter strings (--enable-activities, --enable-events)
// and the --devices list with them, on the GCU test tree. The input is
// "FILTER" or "FILTER\nDEVICES"; its first byte picks activities or events.
// Every rejection must be a SelectionError; what is accepted must be sorted
// and unique, as Selection promises.
#include "tests/support/gcu_test_topology.hpp"

#include <prof/activity/device_list.hpp>
#include <prof/activity/filter.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

using namespace prof::activity;

void check_sorted_unique(const Selection &s) {
  const auto not_before = [](const auto &a, const auto &b) { return !item_less(a, b); };
  const auto api_not_before = [](const auto &a, const auto &b) { return !api_less(a, b); };
  if (std::adjacent_find(s.items.begin(), s.items.end(), not_before) != s.items.end() ||
      std::adjacent_find(s.apis.begin(), s.apis.end(), api_not_before) != s.apis.end())
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  const ItemKind kind = data[0] & 1 ? ItemKind::Event : ItemKind::Activity;
  const std::string_view input(reinterpret_cast<const char *>(data + 1), size - 1);
  const size_t newline = input.find('\n');
  const std::string_view filter = input.substr(0, newline);
  const prof_gcu_topology &topology = testing::gcu_test_topology();
  try {
    const Selection selection = parse_filter(topology, kind, filter);
    check_sorted_unique(selection);
    (void)filter_rule_devices(topology, kind, filter);
    if (newline == std::string_view::npos) return 0;
    const auto devices = parse_device_list(topology, input.substr(newline + 1));
    check_sorted_unique(
        restrict_to_devices(topology, kind, filter, selection, devices, "--enable-activities"));
  } catch (const SelectionError &) {
  }
  return 0;
}
