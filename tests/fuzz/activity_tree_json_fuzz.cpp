// Fuzzes the JSON device tree of --import-activities/--import-events and the
// JSON reader under it. The first input byte picks activities or events.
// Rejections must be JsonSyntaxError (the reader) or SelectionError (the
// import); a tree that imports must export and import again to the same
// selection.
#include "tests/support/gcu_test_topology.hpp"

#include <prof/activity/json_reader.hpp>
#include <prof/activity/tree_json.hpp>

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

using namespace prof::activity;

bool same(const Selection &a, const Selection &b) {
  const auto item_equal = [](const auto &x, const auto &y) {
    return !item_less(x, y) && !item_less(y, x);
  };
  const auto api_equal = [](const auto &x, const auto &y) {
    return !api_less(x, y) && !api_less(y, x);
  };
  return std::equal(a.items.begin(), a.items.end(), b.items.begin(), b.items.end(), item_equal) &&
         std::equal(a.apis.begin(), a.apis.end(), b.apis.begin(), b.apis.end(), api_equal);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  const ItemKind kind = data[0] & 1 ? ItemKind::Event : ItemKind::Activity;
  const std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
  try {
    const JsonValue value = parse_json(text);
    (void)position_of(text, value.offset);
  } catch (const JsonSyntaxError &error) {
    (void)error.position;
  }
  const prof_gcu_topology &topology = testing::gcu_test_topology();
  Selection selection;
  try {
    selection = import_tree_json(topology, kind, text, "fuzz.json");
  } catch (const SelectionError &) {
    return 0;
  }
  const std::string exported = export_tree_json(topology, kind, &selection);
  if (!same(import_tree_json(topology, kind, exported, "exported.json"), selection)) std::abort();
  return 0;
}
