// Opens a built plugin .so the way the host does and checks the descriptor
// fields every plugin shares.
#ifndef PROF_TESTS_SUPPORT_LOADED_PLUGIN_HPP
#define PROF_TESTS_SUPPORT_LOADED_PLUGIN_HPP

#include "tests/support/plugin_library.hpp"
#include <prof/plugin.h>

#include <gtest/gtest.h>

#include <string>

namespace prof::testing {

/// A PluginLibrary in a test: one that will not open, or has no entry
/// symbol, fails the test and has no descriptor.
class LoadedPlugin : public PluginLibrary {
public:
  explicit LoadedPlugin(const std::string &name) : PluginLibrary(name) {
    if (!error().empty()) ADD_FAILURE() << error();
  }
};

inline const prof_option_desc *find_option(const prof_plugin_descriptor &d,
                                           const std::string &name) {
  for (uint32_t i = 0; i < d.option_count; ++i)
    if (name == d.options[i].name) return &d.options[i];
  return nullptr;
}

inline void expect_common_fields(const prof_plugin_descriptor &d, const char *name,
                                 prof_plugin_kind kind) {
  EXPECT_EQ(d.struct_size, sizeof(prof_plugin_descriptor));
  EXPECT_EQ(d.abi_major, PROF_ABI_MAJOR);
  EXPECT_EQ(d.abi_minor, PROF_ABI_MINOR);
  EXPECT_STREQ(d.name, name);
  EXPECT_STRNE(d.version, "");
  EXPECT_STRNE(d.description, "");
  EXPECT_STREQ(d.vendor, "prof project");
  EXPECT_EQ(d.kind, kind);
  EXPECT_EQ(d.scope, PROF_SCOPE_SYSTEM);
  EXPECT_EQ(d.source != nullptr, kind == PROF_KIND_SOURCE);
  EXPECT_EQ(d.exporter != nullptr, kind == PROF_KIND_EXPORTER);
}

} // namespace prof::testing

#endif
