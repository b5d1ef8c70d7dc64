#include <prof/activity/tree_json.hpp>

#include "tests/support/gcu_test_topology.hpp"
#include <prof/activity/filter.hpp>
#include <prof/activity/json_reader.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <random>

namespace prof::activity {
namespace {

using namespace testing;
using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

Selection select(std::string_view filter, ItemKind kind = ItemKind::Activity) {
  return parse_filter(gcu_test_topology(), kind, filter);
}

Selection import(std::string_view text, ItemKind kind = ItemKind::Activity) {
  return import_tree_json(gcu_test_topology(), kind, text, "tree.json");
}

std::string import_error(std::string_view text, ItemKind kind = ItemKind::Activity) {
  try {
    import(text, kind);
  } catch (const SelectionError &e) {
    return e.what();
  }
  return "";
}

/// An activities tree with Device0 holding `device_children`, after `root_extra`.
std::string small_tree(const std::string &device_children, const std::string &root_extra = "") {
  return R"({"type": "root", "name": "activities", "children": [)" + root_extra +
         R"({"type": "device", "name": "Device0", "index": 0, "children": [)" + device_children +
         "]}]}";
}

/// A tree with `leaf` in engine `engine` of Device0/Cluster0.
std::string cdma_leaf(const std::string &leaf, const std::string &engine = "CDMA0") {
  return small_tree(R"({"type": "cluster", "name": "Cluster0", "children": [
      {"type": "engine", "name": ")" +
                    engine + R"(", "children": [)" + leaf + "]}]}");
}

TEST(TreeJson, ExportBeginsLikeTheManualsTree) {
  const std::string text = export_tree_json(gcu_test_topology(), ItemKind::Activity);
  const std::string head = R"({
  "type": "root",
  "name": "activities",
  "children": [
    {
      "type": "device",
      "name": "Device0",
      "index": 0,
      "children": [
        {
          "type": "cluster",
          "name": "Cluster0",
          "index": 0,
          "children": [
            {
              "type": "engine",
              "name": "CDMA0",
              "index": 0,
              "children": [
                {
                  "type": "activity",
                  "name": "DMA VC Execution",
                  "isCheck": false
                },
                {
                  "type": "activity",
                  "name": "DMA Busy",
                  "isCheck": false
                }
              ]
            },
)";
  EXPECT_EQ(text.substr(0, head.size()), head);
  EXPECT_THAT(text, HasSubstr(R"("name": "SIPPMC5",
              "index": 5,
              "children": []
)"));
  EXPECT_THAT(text, HasSubstr(R"("name": "ClusterLite1",)"));
  EXPECT_THAT(text, HasSubstr(R"(          "type": "engine",
          "name": "General0",)"));
  EXPECT_THAT(text, HasSubstr(R"(    {
      "type": "api",
      "name": "Api Trace",
      "children": [
        {
          "type": "domain",
          "name": "RUNTIME",
          "children": [
            {
              "type": "activity",
              "name": "gcuInit",
              "isCheck": false
            },)"));
  EXPECT_THAT(text, EndsWith("}\n"));
  EXPECT_EQ(text, export_tree_json(gcu_test_topology(), ItemKind::Activity)); // stable
}

/// Leaves of each type in an exported tree, by walking the parsed JSON.
void count_leaves(const JsonValue &node, std::map<std::string, int> &counts) {
  if (const JsonValue *type = node.find("type"); type && node.find("isCheck"))
    ++counts[type->string + (node.find("isCheck")->boolean ? "+" : "-")];
  if (const JsonValue *children = node.find("children"))
    for (const JsonValue &child : children->array)
      count_leaves(child, counts);
}

TEST(TreeJson, ExportHoldsEveryLeafAndMarksTheChecked) {
  const Selection checked = select("*/*/*/SIP Busy|Api Trace/RUNTIME/gcuMalloc");
  std::map<std::string, int> counts;
  count_leaves(parse_json(export_tree_json(gcu_test_topology(), ItemKind::Activity, &checked)),
               counts);
  EXPECT_EQ(counts["activity+"], 53);
  EXPECT_EQ(counts["activity-"], 320 + 6 - 53);

  std::map<std::string, int> events;
  const std::string text = export_tree_json(gcu_test_topology(), ItemKind::Event);
  count_leaves(parse_json(text), events);
  EXPECT_EQ(events["event-"], 192);
  EXPECT_EQ(events.size(), 1u);
  EXPECT_THAT(text, StartsWith("{\n  \"type\": \"root\",\n  \"name\": \"events\","));
  EXPECT_THAT(text, Not(HasSubstr("Api Trace")));
}

TEST(TreeJson, RoundTripGivesTheSameSelection) {
  const std::vector<std::pair<std::string, ItemKind>> filters = {
      {"*/*/*/SIP Busy", ItemKind::Activity},
      {"0/cluster1/sdma/*|1/cluster2/cdma/*|Api Trace/RUNTIME/gcuMalloc,gcuLaunchKernel",
       ItemKind::Activity},
      {"Api Trace/RUNTIME/*", ItemKind::Activity},
      {"*/general/operator|1/ts/TS ISR|*/clusterlite1/sip_lite/*", ItemKind::Activity},
      {"all", ItemKind::Activity},
      {"*/*/sippmc/sip_busy_with_wait", ItemKind::Event},
      {"1/cluster3/sippmc5/*", ItemKind::Event},
  };
  for (const auto &[filter, kind] : filters) {
    SCOPED_TRACE(filter);
    const Selection s = select(filter, kind);
    EXPECT_EQ(import(export_tree_json(gcu_test_topology(), kind, &s), kind), s);
  }
}

TEST(TreeJson, EditedTreeImportsTheFlip) {
  const Selection operators = select("*/general/operator");
  std::string text = export_tree_json(gcu_test_topology(), ItemKind::Activity, &operators);
  // Check the first leaf (Device0/Cluster0/CDMA0/DMA VC Execution) ...
  text.replace(text.find("\"isCheck\": false"), 16, "\"isCheck\": true");
  // ... and gcuFree; uncheck Device1's Operator (the last true).
  const std::size_t free_at = text.find("\"name\": \"gcuFree\"");
  text.replace(text.find("\"isCheck\": false", free_at), 16, "\"isCheck\": true");
  const std::size_t last_true = text.rfind("\"isCheck\": true", free_at);
  text.replace(last_true, 15, "\"isCheck\": false");
  EXPECT_THAT(describe(import(text), ItemKind::Activity),
              ElementsAre("Device0/General0/Operator", "Device0/Cluster0/CDMA0/DMA VC Execution",
                          "Api Trace/RUNTIME/gcuFree"));
}

TEST(TreeJson, NodesLeftOutCountAsUnchecked) {
  const Selection s =
      import(cdma_leaf(R"({"type": "activity", "name": "DMA Busy", "isCheck": true})"));
  EXPECT_THAT(describe(s, ItemKind::Activity), ElementsAre("Device0/Cluster0/CDMA0/DMA Busy"));
  const Selection api = import(
      R"({"type": "root", "name": "activities", "children": [{"type": "api", "name": "Api Trace",
      "children": [{"type": "domain", "name": "RUNTIME", "children": [
      {"type": "activity", "name": "gcuMemcpyD2H", "isCheck": true}]}]}]})");
  EXPECT_THAT(describe(api, ItemKind::Activity), ElementsAre("Api Trace/RUNTIME/gcuMemcpyD2H"));
}

TEST(TreeJson, NothingCheckedSelectsNothing) {
  EXPECT_EQ(import_error(export_tree_json(gcu_test_topology(), ItemKind::Activity)),
            "tree.json: selects nothing: no activity has \"isCheck\": true");
}

TEST(TreeJson, SyntaxErrorsSayLineAndColumn) {
  EXPECT_EQ(import_error("{"), "tree.json:1:2: expected a string key, found end of input");
  EXPECT_EQ(import_error("{\"type\": \"root\",\n  \"name\": x}"),
            "tree.json:2:11: expected a value, found 'x'");
  EXPECT_EQ(import_error(""), "tree.json:1:1: expected a value, found end of input");
  EXPECT_THAT(import_error("{} {}"), StartsWith("tree.json:1:4: expected end of input"));
}

TEST(TreeJson, UnknownNodesNameTheirPath) {
  EXPECT_EQ(import_error(small_tree(R"({"type": "cluster", "name": "Cluster9", "children": []})")),
            "tree.json: Device0/Cluster9: no such cluster in this device tree (Cluster has 0 ~ 3)");
  EXPECT_THAT(import_error(small_tree(R"({"type": "cluster", "name": "Foo0", "children": []})")),
              HasSubstr("Device0/Foo0: no such cluster in this device tree (clusters: Cluster, "
                        "ClusterLite)"));
  EXPECT_THAT(
      import_error(small_tree(R"({"type": "cluster", "name": "Cluster01", "children": []})")),
      HasSubstr("Device0/Cluster01: no such cluster"));
  EXPECT_THAT(import_error(R"({"type": "root", "name": "activities", "children": [
      {"type": "device", "name": "Device5", "children": []}]})"),
              HasSubstr("tree.json: Device5: no such device in this device tree"));
  EXPECT_THAT(import_error(cdma_leaf("", "CDMA_LITE0")),
              HasSubstr("Device0/Cluster0/CDMA_LITE0: no such engine in Cluster (engines: CDMA, "
                        "CQM, SDMA, SIP, SIPPMC)"));
  EXPECT_THAT(
      import_error(cdma_leaf("", "CDMA4")),
      HasSubstr("Device0/Cluster0/CDMA4: no such engine in this device tree (CDMA has 0 ~ 3)"));
  EXPECT_THAT(
      import_error(small_tree(R"({"type": "engine", "name": "SIP0", "children": []})")),
      HasSubstr("Device0/SIP0: no such engine in the device itself (engines: General, TS)"));
  EXPECT_EQ(import_error(cdma_leaf(R"({"type": "activity", "name": "Foo", "isCheck": true})")),
            "tree.json: Device0/Cluster0/CDMA0/Foo: no such activity of CDMA (DMA VC Execution, "
            "DMA Busy)");
  EXPECT_THAT(import_error(R"({"type": "root", "name": "activities", "children": [{"type": "api",
      "name": "Api Trace", "children": [{"type": "domain", "name": "DRIVER", "children": []}]}]})"),
              HasSubstr("Api Trace/DRIVER: no such API domain (domains: RUNTIME)"));
  EXPECT_THAT(import_error(R"({"type": "root", "name": "activities", "children": [{"type": "api",
      "name": "Api Trace", "children": [{"type": "domain", "name": "RUNTIME", "children": [
      {"type": "activity", "name": "gcuFoo", "isCheck": true}]}]}]})"),
              HasSubstr("Api Trace/RUNTIME/gcuFoo: no such function of RUNTIME"));
}

TEST(TreeJson, WrongTypesAndMissingFields) {
  EXPECT_EQ(import_error("[]"), "tree.json: root: expected an object, found an array");
  EXPECT_THAT(import_error(R"({"type": "root", "name": "events", "children": []})"),
              HasSubstr("root: \"name\" is \"events\"; this file must hold activities"));
  EXPECT_THAT(import_error(R"({"type": "tree", "name": "activities", "children": []})"),
              HasSubstr("root: a node of type \"tree\" here; expected \"root\""));
  EXPECT_THAT(import_error(R"({"type": "root", "name": "activities"})"),
              HasSubstr("root: missing \"children\""));
  EXPECT_THAT(import_error(R"({"type": "root", "name": "activities", "children": {}})"),
              HasSubstr("root: \"children\" must be an array, found an object"));
  EXPECT_THAT(import_error(R"({"type": "root", "name": "activities", "children": [1]})"),
              HasSubstr("tree.json: children[0]: expected an object, found a number"));
  EXPECT_THAT(
      import_error(R"({"type": "root", "name": "activities", "children": [{"name": "Device0"}]})"),
      HasSubstr("Device0: missing \"type\""));
  EXPECT_THAT(import_error(R"({"type": "root", "name": "activities", "children": [
      {"type": "device", "name": "Device0"}]})"),
              HasSubstr("tree.json: Device0: missing \"children\""));
  EXPECT_THAT(
      import_error(cdma_leaf(R"({"type": "activity", "name": "DMA Busy", "isCheck": "yes"})")),
      HasSubstr("Device0/Cluster0/CDMA0/DMA Busy: \"isCheck\" must be true or false, found a "
                "string"));
  EXPECT_THAT(import_error(cdma_leaf(R"({"type": "activity", "name": "DMA Busy"})")),
              HasSubstr("Device0/Cluster0/CDMA0/DMA Busy: missing \"isCheck\""));
  EXPECT_THAT(import_error(cdma_leaf(R"({"type": "event", "name": "DMA Busy", "isCheck": true})")),
              HasSubstr("Device0/Cluster0/CDMA0/DMA Busy: a node of type \"event\" here; expected "
                        "\"activity\""));
  EXPECT_THAT(import_error(cdma_leaf(R"({"type": "activity", "name": 7, "isCheck": true})")),
              HasSubstr("Device0/Cluster0/CDMA0/children[0]: \"name\" must be a string"));
  EXPECT_THAT(
      import_error(small_tree(R"({"type": "engine", "name": "TS0", "index": 1, "children": []})")),
      HasSubstr("Device0/TS0: \"index\" must be 0 as in the name"));
  EXPECT_THAT(import_error(small_tree(R"({"type": "device", "name": "Device1", "children": []})")),
              HasSubstr("Device0/Device1: a node of type \"device\" here; expected \"cluster\" or "
                        "\"engine\""));
  EXPECT_THAT(
      import_error(small_tree("", R"({"type": "api", "name": "Api Trace", "children": []},)"),
                   ItemKind::Event),
      HasSubstr("root: \"name\" is \"activities\""));
  const std::string event_tree = R"({"type": "root", "name": "events", "children": [{"type": "api",
      "name": "Api Trace", "children": []}]})";
  EXPECT_THAT(import_error(event_tree, ItemKind::Event),
              HasSubstr("Api Trace: a node of type \"api\" here; expected \"device\""));
}

TEST(TreeJson, ErrorsStayOnOneLine) {
  const std::string e =
      import_error(small_tree(R"({"type": "cluster", "name": "A\nB", "children": []})"));
  EXPECT_THAT(e, HasSubstr("Device0/A B: no such cluster"));
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

TEST(TreeJson, NamesAreEscapedAndReadBack) {
  const char *const odd[] = {"quote \" back\\slash", "tab\tnew\nline\x01",
                             "caf\xc3\xa9 \xe2\x9c\x93", "/slash"};
  const prof_gcu_engine_desc engines[] = {{"Odd\"Engine", -1, 2, odd, 4, nullptr, 0}};
  const char *const functions[] = {"fn\\x"};
  const prof_gcu_api_domain domains[] = {{"DOM\"AIN", functions, 1}};
  const prof_gcu_topology topology = {
      sizeof(prof_gcu_topology), 1, nullptr, 0, engines, 1, domains, 1};
  const Selection all = parse_filter(topology, ItemKind::Activity, "all");
  ASSERT_EQ(all.items.size(), 8u);
  const std::string text = export_tree_json(topology, ItemKind::Activity, &all);
  EXPECT_THAT(text, HasSubstr(R"("name": "quote \" back\\slash")"));
  EXPECT_THAT(text, HasSubstr(R"("name": "tab\tnew\nline\u0001")"));
  EXPECT_THAT(text, HasSubstr("\"name\": \"caf\xc3\xa9 \xe2\x9c\x93\""));
  EXPECT_THAT(text, HasSubstr(R"("name": "Odd\"Engine1")"));
  EXPECT_EQ(import_tree_json(topology, ItemKind::Activity, text, "odd.json"), all);
}

/// "tree.json:LINE:COL: expected ...".
bool is_syntax_error(std::string_view e) {
  auto number = [&] {
    const std::size_t digits = e.find_first_not_of("0123456789");
    const bool ok = digits > 0 && digits != std::string_view::npos && e[digits] == ':';
    e.remove_prefix(ok ? digits + 1 : 0);
    return ok;
  };
  if (!e.starts_with("tree.json:")) return false;
  e.remove_prefix(10);
  return number() && number() && e.starts_with(" expected ");
}

TEST(TreeJson, TruncatedExportsFailCleanly) {
  const Selection s = select("0/cluster1/sdma/*|1/cluster2/cdma/*|Api Trace/RUNTIME/gcuInit");
  const std::string text = export_tree_json(gcu_test_topology(), ItemKind::Activity, &s);

  int cuts = 0;
  for (std::size_t cut = 0; cut + 2 < text.size(); cut += 97, ++cuts) {
    SCOPED_TRACE(cut);
    const std::string e = import_error(std::string_view(text).substr(0, cut));
    EXPECT_TRUE(is_syntax_error(e)) << e;
  }
  EXPECT_GT(cuts, 100);
  EXPECT_EQ(import(std::string_view(text).substr(0, text.size() - 1)), s); // only the newline cut
}

TEST(TreeJson, ByteOrderMarkAndSizeLimit) {
  const Selection s = select("*/ts/TS ISR");
  EXPECT_EQ(import("\xef\xbb\xbf" + export_tree_json(gcu_test_topology(), ItemKind::Activity, &s)),
            s);
  EXPECT_EQ(import_error(std::string((16u << 20) + 1, ' ')),
            "tree.json: 16777217 bytes; a device tree file holds at most 16 MiB");
}

TEST(TreeJson, DeepNestingAndGarbageNeverCrash) {
  EXPECT_THAT(import_error(std::string(100000, '[')),
              StartsWith("tree.json:1:65: expected at most 64 nested arrays and objects"));
  std::string objects;
  for (int i = 0; i < 20000; ++i)
    objects += "{\"children\":";
  EXPECT_THAT(import_error(objects), HasSubstr("expected at most 64 nested"));

  const Selection s = select("*/general/*|Api Trace/RUNTIME/*");
  const std::string text = export_tree_json(gcu_test_topology(), ItemKind::Activity, &s);
  std::mt19937 random(12345);
  for (int round = 0; round < 300; ++round) {
    std::string mutated = text;
    for (int flips = 0; flips < 1 + round % 4; ++flips)
      mutated[random() % mutated.size()] = static_cast<char>(random() % 256);
    try {
      import(mutated);
    } catch (const SelectionError &e) {
      EXPECT_THAT(e.what(), StartsWith("tree.json"));
    }
  }
  for (int round = 0; round < 200; ++round) {
    std::string garbage(random() % 64, '\0');
    for (char &c : garbage)
      c = "{}[]\",:0-1.eE\\ntrufalsu\x01 "[random() % 26];
    try {
      import(garbage);
    } catch (const SelectionError &) {
    }
  }
}

} // namespace
} // namespace prof::activity
