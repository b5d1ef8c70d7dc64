// A built plugin .so (build_paths.hpp's plugin_library) opened with
// dlopen(RTLD_NOW | RTLD_LOCAL), as the host opens it, and closed at the end
// of its scope. Without GoogleTest, for benchmarks too; tests use
// LoadedPlugin (loaded_plugin.hpp), which fails the test when it won't open.
#ifndef PROF_TESTS_SUPPORT_PLUGIN_LIBRARY_HPP
#define PROF_TESTS_SUPPORT_PLUGIN_LIBRARY_HPP

#include "tests/support/build_paths.hpp"
#include <prof/plugin.h>

#include <dlfcn.h>
#include <string>

namespace prof::testing {

class PluginLibrary {
public:
  explicit PluginLibrary(const std::string &name) : path_(e2e::plugin_library(name)) {
    handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      const char *why = dlerror();
      error_ = why != nullptr ? why : "cannot open " + path_;
      return;
    }
    auto entry = reinterpret_cast<prof_plugin_entry_fn>(dlsym(handle_, PROF_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr) {
      error_ = std::string("no ") + PROF_PLUGIN_ENTRY_SYMBOL + " in " + path_;
      return;
    }
    descriptor_ = entry();
  }
  ~PluginLibrary() {
    if (handle_ != nullptr) dlclose(handle_);
  }
  PluginLibrary(const PluginLibrary &) = delete;
  PluginLibrary &operator=(const PluginLibrary &) = delete;

  /// The plugin's descriptor; nullptr when it would not open (error() says why).
  const prof_plugin_descriptor *descriptor() const { return descriptor_; }
  const std::string &error() const { return error_; }
  /// Another symbol the plugin exports (an interposer), of symbol version
  /// `version` when given; nullptr if none.
  void *symbol(const char *name, const char *version = nullptr) const {
    if (handle_ == nullptr) return nullptr;
    return version != nullptr ? dlvsym(handle_, name, version) : dlsym(handle_, name);
  }
  const std::string &path() const { return path_; }

private:
  std::string path_;
  std::string error_;
  void *handle_ = nullptr;
  const prof_plugin_descriptor *descriptor_ = nullptr;
};

} // namespace prof::testing

#endif
