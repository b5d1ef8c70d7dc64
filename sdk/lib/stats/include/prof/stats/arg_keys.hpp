// An event's argument found by its key's text without comparing text per
// event: each key id is compared with the name once and the answer kept.
#pragma once

#include <prof/plugin.hpp>

#include <string_view>
#include <unordered_map>

namespace prof::stats {

/// Key ids already compared with one name: whether they read it.
using ArgKeyCache = std::unordered_map<prof_string_id, bool>;

/// The argument of `e` whose key reads `key`, or nullptr. `keys` keeps each
/// key id's answer: one cache for each name looked up.
inline const prof_arg *arg_named(const ExportHost &host, const prof_event &e, std::string_view key,
                                 ArgKeyCache &keys) {
  for (const prof_arg &a : host.args(e.args)) {
    auto known = keys.find(a.key);
    if (known == keys.end()) known = keys.emplace(a.key, host.string(a.key) == key).first;
    if (known->second) return &a;
  }
  return nullptr;
}

} // namespace prof::stats
