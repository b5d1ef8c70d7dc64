// Opens a built plugin .so the way the host does and checks the descriptor
// fields every plugin shares.
#ifndef PROF_TESTS_SUPPORT_LOADED_PLUGIN_HPP
#define PROF_TESTS_SUPPORT_LOADED_PLUGIN_HPP

#include <prof/plugin.h>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <string>

namespace prof::testing {

inline std::string plugin_path(const std::string &name) {
  return std::string(PROF_BUILD_DIR) + "/lib/prof/plugins/libprof-" + name + ".so";
}

/// One loaded plugin; closes it at the end of the test.
class LoadedPlugin {
public:
  explicit LoadedPlugin(const std::string &name) {
    handle_ = dlopen(plugin_path(name).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      ADD_FAILURE() << dlerror();
      return;
    }
    auto entry = reinterpret_cast<prof_plugin_entry_fn>(dlsym(handle_, PROF_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr) {
      ADD_FAILURE() << "no " << PROF_PLUGIN_ENTRY_SYMBOL << " in " << plugin_path(name);
      return;
    }
    descriptor_ = entry();
  }
  ~LoadedPlugin() {
    if (handle_ != nullptr) dlclose(handle_);
  }
  const prof_plugin_descriptor *descriptor() const { return descriptor_; }

private:
  void *handle_ = nullptr;
  const prof_plugin_descriptor *descriptor_ = nullptr;
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
