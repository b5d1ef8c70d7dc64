// The built libprof-nic.so opened with dlopen(), as the host opens it, and
// one source instance of it driven through its vtable.
#ifndef PROF_TESTS_NIC_NIC_PLUGIN_HPP
#define PROF_TESTS_NIC_NIC_PLUGIN_HPP

#include <prof/testing/fake_source_host.hpp>

#include <prof/plugin.h>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <string>

namespace prof::testing {

inline const char *nic_plugin_path() { return PROF_BUILD_DIR "/lib/prof/plugins/libprof-nic.so"; }

class NicPlugin {
public:
  NicPlugin() {
    handle_ = dlopen(nic_plugin_path(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      ADD_FAILURE() << dlerror();
      return;
    }
    auto entry = reinterpret_cast<prof_plugin_entry_fn>(dlsym(handle_, PROF_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr) ADD_FAILURE() << "no entry symbol in " << nic_plugin_path();
    descriptor_ = entry ? entry() : nullptr;
  }
  ~NicPlugin() {
    if (instance_ != nullptr) vtable().destroy(instance_);
    if (handle_ != nullptr) dlclose(handle_);
  }
  NicPlugin(const NicPlugin &) = delete;
  NicPlugin &operator=(const NicPlugin &) = delete;

  const prof_plugin_descriptor *descriptor() const { return descriptor_; }
  const prof_source_vtable &vtable() const { return *descriptor_->source; }

  /// Creates the instance on `host`; false when the plugin could not be loaded.
  bool create(FakeSourceHost &host) {
    if (descriptor_ == nullptr) return false;
    instance_ = vtable().create(host.api(), &host);
    return instance_ != nullptr;
  }
  prof_status configure() { return vtable().configure(instance_); }
  prof_status start() { return vtable().start(instance_); }
  prof_status stop() { return vtable().stop(instance_); }
  prof_status suspend() { return vtable().suspend(instance_); }
  prof_status resume() { return vtable().resume(instance_); }
  prof_status flush() { return vtable().flush(instance_); }

private:
  void *handle_ = nullptr;
  const prof_plugin_descriptor *descriptor_ = nullptr;
  void *instance_ = nullptr;
};

} // namespace prof::testing

#endif
