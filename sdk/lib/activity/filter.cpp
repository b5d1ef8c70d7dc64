#include <prof/activity/filter.hpp>

#include <prof/activity/device_tree.hpp>
#include <prof/activity/name_match.hpp>
#include <prof/activity/text_piece.hpp>

#include <algorithm>
#include <optional>

namespace prof::activity {
namespace {

/// Instances of one cluster kind, engine kind or API domain a word names.
struct Pick {
  uint32_t id = 0;
  bool every = true;
  uint64_t index = 0;
  bool covers(uint32_t i) const { return every || index == i; }
};

/// One rule, checked and evaluated.
struct ParsedRule {
  TextPiece text;
  bool all_devices = false;
  std::vector<uint32_t> devices;
  Selection selection;
};

bool is_star(TextPiece p) { return p.text == "*"; }

void add_unique(std::vector<std::string_view> &names, std::string_view name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

/// The picks among `candidates` (ids with names) that `word` names: exact
/// names win over name+index readings, longer names over shorter ones.
template <typename NameOf>
std::vector<Pick> match_candidates(std::string_view word, const std::vector<uint32_t> &candidates,
                                   NameOf name_of) {
  std::vector<Pick> exact, indexed;
  std::size_t longest = 0;
  for (uint32_t id : candidates) {
    const IndexedMatch m = match_indexed(word, name_of(id));
    if (m.kind == IndexedMatch::Every)
      exact.push_back({id, true, 0});
    else if (m.kind == IndexedMatch::One)
      longest = std::max(longest, name_of(id).size());
  }
  if (!exact.empty()) return exact;
  for (uint32_t id : candidates) {
    const IndexedMatch m = match_indexed(word, name_of(id));
    if (m.kind == IndexedMatch::One && name_of(id).size() == longest)
      indexed.push_back({id, false, m.index});
  }
  return indexed;
}

class FilterParser {
public:
  FilterParser(const prof_gcu_topology &topology, ItemKind kind, std::string_view text)
      : tree_(topology), kind_(kind), text_(text) {}

  std::vector<ParsedRule> parse() {
    const TextPiece whole = trim({text_, 0});
    if (whole.text.empty())
      fail(whole, "empty filter; expected device/cluster/engine/" + item_word() +
                      ", device/engine/" + item_word() + level_api_hint() + " or all");
    std::vector<ParsedRule> rules;
    for (TextPiece rule : split(whole, '|'))
      rules.push_back(parse_rule(rule));
    return rules;
  }

private:
  [[noreturn]] void fail(TextPiece where, const std::string &message) const {
    std::string line = "filter \"" + one_line(text_) + "\" at ";
    if (!where.text.empty()) line += "'" + one_line(where.text) + "' ";
    line += "(column " + std::to_string(where.offset + 1) + "): " + message;
    throw SelectionError(line);
  }

  std::string item_word() const { return std::string(kind_name(kind_)); }
  std::string level_api_hint() const {
    return kind_ == ItemKind::Activity ? ", Api Trace/domain/function" : "";
  }

  ParsedRule parse_rule(TextPiece rule) {
    if (rule.text.empty())
      fail(rule, "empty rule between '|'; expected device/cluster/engine/" + item_word() +
                     ", device/engine/" + item_word() + level_api_hint() + " or all");
    ParsedRule out;
    out.text = rule;
    if (iequals(rule.text, "all")) {
      out.all_devices = true;
      out.selection.items = tree_.all_items(kind_);
      if (kind_ == ItemKind::Activity) out.selection.apis = tree_.all_apis();
      if (out.selection.empty())
        fail(rule, "selects nothing: this device tree has no " + std::string(kind_plural(kind_)));
      return out;
    }
    const std::vector<TextPiece> levels = split(rule, '/');
    for (TextPiece level : levels)
      if (level.text.empty()) fail(level, "empty level between '/'");
    const bool api = iequals(levels[0].text, "Api Trace");
    if (api && kind_ == ItemKind::Event)
      fail(levels[0], "events have no Api Trace; API functions are traced as activities");
    if (api && levels.size() != 3)
      fail(rule,
           "expected 3 levels, Api Trace/domain/function, found " + std::to_string(levels.size()));
    if (levels.size() != 3 && levels.size() != 4)
      fail(rule, "expected 4 levels (device/cluster/engine/" + item_word() +
                     "), 3 (device/engine/" + item_word() + level_api_hint() + ") or all, found " +
                     std::to_string(levels.size()));
    if (api) {
      parse_api(levels, out);
    } else {
      parse_devices(levels[0], levels.size() == 3, out);
      std::vector<Pick> groups;
      if (levels.size() == 4) groups = parse_groups(levels[1]);
      const std::vector<Pick> engines =
          parse_engines(levels[levels.size() - 2], groups, levels.size() == 3);
      evaluate(levels.back(), groups, engines, levels.size() == 3, out);
    }
    if (out.selection.empty()) fail(rule, nothing_reason_);
    return out;
  }

  void parse_devices(TextPiece level, bool three_levels, ParsedRule &out) {
    const std::string expected =
        "expected a device number " + index_range(tree_.device_count()) +
        (three_levels && kind_ == ItemKind::Activity ? ", '*' or 'Api Trace'" : " or '*'");
    for (TextPiece word : split(level, ',')) {
      if (word.text.empty()) fail(word, "empty name in a list; " + expected);
      if (is_star(word)) {
        out.all_devices = true;
        continue;
      }
      const std::optional<uint64_t> device = parse_decimal(word.text);
      if (!device) fail(word, "not a device; " + expected);
      if (*device >= tree_.device_count())
        fail(word, "no such device; devices are " + index_span(tree_.device_count()));
      out.devices.push_back(static_cast<uint32_t>(*device));
    }
    if (out.all_devices) {
      out.devices.clear();
      for (uint32_t d = 0; d < tree_.device_count(); ++d)
        out.devices.push_back(d);
    }
    std::sort(out.devices.begin(), out.devices.end());
    out.devices.erase(std::unique(out.devices.begin(), out.devices.end()), out.devices.end());
  }

  std::vector<uint32_t> group_ids() const {
    std::vector<uint32_t> ids;
    for (uint32_t g = 0; g < tree_.group_count(); ++g)
      ids.push_back(g);
    return ids;
  }

  std::vector<uint32_t> engines_where(bool (*keep)(int32_t group, const std::vector<Pick> &),
                                      const std::vector<Pick> &groups) const {
    std::vector<uint32_t> ids;
    for (uint32_t e = 0; e < tree_.engine_count(); ++e)
      if (tree_.engine_listed(e) && keep(tree_.engine_group(e), groups)) ids.push_back(e);
    return ids;
  }

  static bool in_groups(int32_t group, const std::vector<Pick> &groups) {
    return std::any_of(groups.begin(), groups.end(),
                       [&](const Pick &p) { return static_cast<int32_t>(p.id) == group; });
  }
  static bool in_device(int32_t group, const std::vector<Pick> &) { return group == kDeviceGroup; }
  static bool in_any_group(int32_t group, const std::vector<Pick> &) {
    return group != kDeviceGroup;
  }

  std::vector<std::string_view> group_names(const std::vector<uint32_t> &ids) const {
    std::vector<std::string_view> names;
    for (uint32_t g : ids)
      add_unique(names, tree_.group_name(g));
    return names;
  }
  std::vector<std::string_view> engine_names(const std::vector<uint32_t> &ids) const {
    std::vector<std::string_view> names;
    for (uint32_t e : ids)
      add_unique(names, tree_.engine_name(e));
    return names;
  }

  std::vector<Pick> parse_groups(TextPiece level) {
    const std::vector<uint32_t> all = group_ids();
    auto name_of = [&](uint32_t g) { return tree_.group_name(g); };
    const std::string expected =
        "expected a cluster (" + brief_list(group_names(all)) + "), optionally with an index" +
        (all.empty() ? std::string() : " such as " + std::string(tree_.group_name(0)) + "1") +
        ", or '*'";
    std::vector<Pick> picks;
    for (TextPiece word : split(level, ',')) {
      if (word.text.empty()) fail(word, "empty name in a list; " + expected);
      if (is_star(word)) {
        for (uint32_t g : all)
          picks.push_back({g, true, 0});
        continue;
      }
      std::vector<Pick> found = match_candidates(word.text, all, name_of);
      if (found.empty()) {
        const std::vector<uint32_t> own = engines_where(in_device, {});
        const std::vector<uint32_t> inner = engines_where(in_any_group, {});
        if (!match_candidates(word.text, own, [&](uint32_t e) {
               return tree_.engine_name(e);
             }).empty())
          fail(word,
               "an engine of the device itself, not a cluster; use device/engine/" + item_word());
        if (!match_candidates(word.text, inner, [&](uint32_t e) {
               return tree_.engine_name(e);
             }).empty())
          fail(word, "an engine, not a cluster; " + expected);
        fail(word, "unknown cluster; " + expected);
      }
      keep_in_range(
          word, found, [&](uint32_t g) { return tree_.group_instances(g); }, name_of);
      picks.insert(picks.end(), found.begin(), found.end());
    }
    return picks;
  }

  /// Drops picks whose index is out of range; fails when none is left.
  template <typename CountOf, typename NameOf>
  void keep_in_range(TextPiece word, std::vector<Pick> &found, CountOf count_of, NameOf name_of) {
    const Pick first = found.front();
    std::erase_if(found, [&](const Pick &p) { return !p.every && p.index >= count_of(p.id); });
    if (found.empty())
      fail(word, std::string(name_of(first.id)) + " has " + index_span(count_of(first.id)));
  }

  std::vector<Pick> parse_engines(TextPiece level, const std::vector<Pick> &groups,
                                  bool device_level) {
    const std::vector<uint32_t> scope =
        device_level ? engines_where(in_device, groups) : engines_where(in_groups, groups);
    auto name_of = [&](uint32_t e) { return tree_.engine_name(e); };
    std::string owner = "the device itself";
    if (!device_level) {
      std::vector<uint32_t> ids;
      for (const Pick &p : groups)
        ids.push_back(p.id);
      owner = brief_list(group_names(ids));
    }
    const std::string expected = "expected an engine of " + owner + " (" +
                                 brief_list(engine_names(scope)) +
                                 "), optionally with an index, or '*'";
    std::vector<Pick> picks;
    for (TextPiece word : split(level, ',')) {
      if (word.text.empty()) fail(word, "empty name in a list; " + expected);
      if (is_star(word)) {
        for (uint32_t e : scope)
          picks.push_back({e, true, 0});
        continue;
      }
      std::vector<Pick> found = match_candidates(word.text, scope, name_of);
      if (found.empty()) explain_unknown_engine(word, device_level, expected);
      keep_in_range(
          word, found, [&](uint32_t e) { return tree_.engine_instances(e); }, name_of);
      picks.insert(picks.end(), found.begin(), found.end());
    }
    return picks;
  }

  [[noreturn]] void explain_unknown_engine(TextPiece word, bool device_level,
                                           const std::string &expected) {
    auto engine_name_of = [&](uint32_t e) { return tree_.engine_name(e); };
    const std::vector<uint32_t> inner = engines_where(in_any_group, {});
    const std::vector<uint32_t> own = engines_where(in_device, {});
    if (device_level) {
      const std::vector<Pick> in_cluster = match_candidates(word.text, inner, engine_name_of);
      if (!in_cluster.empty())
        fail(word, "an engine inside " +
                       std::string(tree_.group_name(tree_.engine_group(in_cluster[0].id))) +
                       "; use device/cluster/engine/" + item_word());
      if (!match_candidates(word.text, group_ids(), [&](uint32_t g) {
             return tree_.group_name(g);
           }).empty())
        fail(word, "a cluster, not an engine; use device/cluster/engine/" + item_word());
    } else {
      if (!match_candidates(word.text, own, engine_name_of).empty())
        fail(word,
             "an engine of the device itself, not of a cluster; use device/engine/" + item_word());
      const std::vector<Pick> elsewhere = match_candidates(word.text, inner, engine_name_of);
      if (!elsewhere.empty())
        fail(word, "an engine of " +
                       std::string(tree_.group_name(tree_.engine_group(elsewhere[0].id))) +
                       ", not of the clusters this rule names; " + expected);
    }
    fail(word, "unknown engine; " + expected);
  }

  /// Adds every item the rule selects; `groups` is empty for device/engine/item.
  void evaluate(TextPiece level, const std::vector<Pick> &groups, const std::vector<Pick> &engines,
                bool device_level, ParsedRule &out) {
    std::vector<uint32_t> engine_ids;
    for (const Pick &p : engines)
      if (std::find(engine_ids.begin(), engine_ids.end(), p.id) == engine_ids.end())
        engine_ids.push_back(p.id);
    const std::vector<std::vector<uint32_t>> items = parse_items(level, engine_ids);

    std::vector<prof_gcu_item> &sel = out.selection.items;
    auto add_engine = [&](uint32_t device, int32_t group, uint32_t group_index,
                          const Pick &engine) {
      for (uint32_t ei = 0; ei < tree_.engine_instances(engine.id); ++ei)
        if (engine.covers(ei))
          for (uint32_t item : items[engine.id])
            sel.push_back({device, group, group_index, engine.id, ei, item});
    };
    for (uint32_t d : out.devices) {
      if (device_level) {
        for (const Pick &e : engines)
          add_engine(d, kDeviceGroup, 0, e);
        continue;
      }
      for (const Pick &g : groups)
        for (uint32_t gi = 0; gi < tree_.group_instances(g.id); ++gi)
          if (g.covers(gi))
            for (const Pick &e : engines)
              if (tree_.engine_group(e.id) == static_cast<int32_t>(g.id))
                add_engine(d, static_cast<int32_t>(g.id), gi, e);
    }
    nothing_reason_ = "selects nothing";
    std::vector<std::string_view> empty;
    for (uint32_t e : engine_ids)
      if (tree_.item_count(e, kind_) == 0) add_unique(empty, tree_.engine_name(e));
    if (!engine_ids.empty() && empty.size() == engine_names(engine_ids).size())
      nothing_reason_ += ": " + brief_list(empty) + (empty.size() == 1 ? " has no " : " have no ") +
                         std::string(kind_plural(kind_));
  }

  /// For each engine id, the item indexes the level names.
  std::vector<std::vector<uint32_t>> parse_items(TextPiece level,
                                                 const std::vector<uint32_t> &engines) {
    std::vector<std::vector<uint32_t>> items(tree_.engine_count());
    for (TextPiece word : split(level, ',')) {
      if (word.text.empty())
        fail(word, "empty name in a list; expected " + std::string(kind_plural(kind_)) + " or '*'");
      bool matched = false;
      for (uint32_t e : engines)
        for (uint32_t i = 0; i < tree_.item_count(e, kind_); ++i)
          if (is_star(word) || iequals(word.text, tree_.item_name(e, kind_, i))) {
            items[e].push_back(i);
            matched = true;
          }
      if (!matched && !is_star(word)) fail(word, "not " + article() + " of " + owner_list(engines));
    }
    for (auto &list : items) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    return items;
  }

  std::string article() const { return kind_ == ItemKind::Activity ? "an activity" : "an event"; }

  /// "SIP (its activities: SIP Busy)" or "CDMA, SDMA (their activities: ...)".
  std::string owner_list(const std::vector<uint32_t> &engines) const {
    if (engines.empty()) return "any engine this rule names (it names none)";
    std::vector<std::string_view> names;
    for (uint32_t e : engines)
      for (uint32_t i = 0; i < tree_.item_count(e, kind_); ++i)
        add_unique(names, tree_.item_name(e, kind_, i));
    const std::vector<std::string_view> owners = engine_names(engines);
    return brief_list(owners) + " (" + (owners.size() == 1 ? "its " : "their ") +
           std::string(kind_plural(kind_)) + ": " + brief_list(names) + ")";
  }

  void parse_api(const std::vector<TextPiece> &levels, ParsedRule &out) {
    std::vector<uint32_t> all;
    std::vector<std::string_view> names;
    for (uint32_t d = 0; d < tree_.domain_count(); ++d) {
      all.push_back(d);
      add_unique(names, tree_.domain_name(d));
    }
    auto name_of = [&](uint32_t d) { return tree_.domain_name(d); };
    const std::string expected = "expected an API domain (" + brief_list(names) + ") or '*'";
    std::vector<uint32_t> domains;
    for (TextPiece word : split(levels[1], ',')) {
      if (word.text.empty()) fail(word, "empty name in a list; " + expected);
      std::vector<Pick> found;
      if (is_star(word)) {
        for (uint32_t d : all)
          found.push_back({d, true, 0});
      } else {
        found = match_candidates(word.text, all, name_of);
        if (found.empty()) fail(word, "unknown API domain; " + expected);
        keep_in_range(
            word, found, [](uint32_t) { return 1u; }, name_of);
      }
      for (const Pick &p : found)
        domains.push_back(p.id);
    }
    std::sort(domains.begin(), domains.end());
    domains.erase(std::unique(domains.begin(), domains.end()), domains.end());

    for (TextPiece word : split(levels[2], ',')) {
      if (word.text.empty()) fail(word, "empty name in a list; expected API functions or '*'");
      bool matched = false;
      for (uint32_t d : domains)
        for (uint32_t f = 0; f < tree_.function_count(d); ++f)
          if (is_star(word) || iequals(word.text, tree_.function_name(d, f))) {
            out.selection.apis.push_back({d, f});
            matched = true;
          }
      if (!matched && !is_star(word)) {
        std::vector<std::string_view> owners, functions;
        for (uint32_t d : domains) {
          add_unique(owners, tree_.domain_name(d));
          for (uint32_t f = 0; f < tree_.function_count(d); ++f)
            add_unique(functions, tree_.function_name(d, f));
        }
        fail(word, "not a function of " + brief_list(owners) +
                       " (functions: " + brief_list(functions) + ")");
      }
    }
    nothing_reason_ = "selects nothing: no API functions there";
  }

  DeviceTree tree_;
  ItemKind kind_;
  std::string_view text_;
  std::string nothing_reason_;
};

} // namespace

Selection parse_filter(const prof_gcu_topology &topology, ItemKind kind, std::string_view text) {
  Selection selection;
  for (ParsedRule &rule : FilterParser(topology, kind, text).parse()) {
    auto &items = rule.selection.items;
    auto &apis = rule.selection.apis;
    selection.items.insert(selection.items.end(), items.begin(), items.end());
    selection.apis.insert(selection.apis.end(), apis.begin(), apis.end());
  }
  normalize(selection);
  return selection;
}

std::vector<RuleDevices> filter_rule_devices(const prof_gcu_topology &topology, ItemKind kind,
                                             std::string_view text) {
  std::vector<RuleDevices> out;
  for (ParsedRule &rule : FilterParser(topology, kind, text).parse())
    out.push_back({std::string(rule.text.text), rule.all_devices,
                   rule.all_devices ? std::vector<uint32_t>{} : std::move(rule.devices)});
  return out;
}

} // namespace prof::activity
