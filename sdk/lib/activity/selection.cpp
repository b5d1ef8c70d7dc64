#include <prof/activity/selection.hpp>

#include <algorithm>
#include <tuple>

namespace prof::activity {
namespace {

auto key(const prof_gcu_item &i) {
  return std::tie(i.device, i.group, i.group_index, i.engine, i.engine_index, i.item);
}
auto key(const prof_gcu_api_item &a) { return std::tie(a.domain, a.function); }

} // namespace

std::string_view kind_name(ItemKind kind) {
  return kind == ItemKind::Activity ? "activity" : "event";
}

std::string_view kind_plural(ItemKind kind) {
  return kind == ItemKind::Activity ? "activities" : "events";
}

bool item_less(const prof_gcu_item &a, const prof_gcu_item &b) { return key(a) < key(b); }
bool item_equal(const prof_gcu_item &a, const prof_gcu_item &b) { return key(a) == key(b); }
bool api_less(const prof_gcu_api_item &a, const prof_gcu_api_item &b) { return key(a) < key(b); }
bool api_equal(const prof_gcu_api_item &a, const prof_gcu_api_item &b) { return key(a) == key(b); }

void normalize(Selection &selection) {
  auto &items = selection.items;
  std::sort(items.begin(), items.end(), item_less);
  items.erase(std::unique(items.begin(), items.end(), item_equal), items.end());
  auto &apis = selection.apis;
  std::sort(apis.begin(), apis.end(), api_less);
  apis.erase(std::unique(apis.begin(), apis.end(), api_equal), apis.end());
}

bool operator==(const Selection &a, const Selection &b) {
  return std::equal(a.items.begin(), a.items.end(), b.items.begin(), b.items.end(), item_equal) &&
         std::equal(a.apis.begin(), a.apis.end(), b.apis.begin(), b.apis.end(), api_equal);
}

} // namespace prof::activity
