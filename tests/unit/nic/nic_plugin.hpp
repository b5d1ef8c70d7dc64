// The built libprof-nic.so opened as the host opens it (LoadedPlugin), and
// one source instance of it driven through its vtable.
#ifndef PROF_TESTS_NIC_NIC_PLUGIN_HPP
#define PROF_TESTS_NIC_NIC_PLUGIN_HPP

#include "tests/support/loaded_plugin.hpp"
#include <prof/testing/fake_source_host.hpp>

#include <prof/plugin.h>

namespace prof::testing {

class NicPlugin {
public:
  NicPlugin() = default;
  ~NicPlugin() {
    if (instance_ != nullptr) vtable().destroy(instance_);
  }
  NicPlugin(const NicPlugin &) = delete;
  NicPlugin &operator=(const NicPlugin &) = delete;

  const prof_plugin_descriptor *descriptor() const { return plugin_.descriptor(); }
  const prof_source_vtable &vtable() const { return *descriptor()->source; }

  /// Creates the instance on `host`; false when the plugin could not be loaded.
  bool create(FakeSourceHost &host) {
    if (descriptor() == nullptr) return false;
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
  LoadedPlugin plugin_{"nic"}; // closed after the instance is destroyed
  void *instance_ = nullptr;
};

} // namespace prof::testing

#endif
