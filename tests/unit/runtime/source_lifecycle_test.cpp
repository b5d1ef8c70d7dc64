// core::SourceLifecycle, the one lifecycle of a source plugin instance in prof
// and in the in-application agent: steps in order, each failure explained by
// the error the plugin logged during it, errors outside a step left to the
// host, and the instance stopped and destroyed once.
#include "core/runtime/source_lifecycle.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

struct Plugin {
  const prof_host_api *api = nullptr;
  void *host = nullptr;
  std::vector<std::string> calls;
  bool fail_start = false;
};
Plugin *g_plugin = nullptr;

struct FakeHost {
  prof::core::SourceLifecycle *lifecycle = nullptr;
  std::vector<std::string> shown; ///< errors the host showed itself
};

void log(void *host, prof_log_level, const char *message) {
  auto &h = *static_cast<FakeHost *>(host);
  if (!h.lifecycle->keep_error(message)) h.shown.emplace_back(message);
}

prof_status step(void *instance, const char *name, bool fail, const char *why) {
  auto &p = *static_cast<Plugin *>(instance);
  p.calls.emplace_back(name);
  if (!fail) return PROF_OK;
  p.api->log(p.host, PROF_LOG_ERROR, why);
  return PROF_ERROR;
}

prof_source_vtable vtable() {
  prof_source_vtable v{};
  v.struct_size = sizeof v;
  v.create = [](const prof_host_api *api, void *host) -> void * {
    g_plugin->api = api;
    g_plugin->host = host;
    g_plugin->calls.emplace_back("create");
    return g_plugin;
  };
  v.destroy = [](void *instance) {
    static_cast<Plugin *>(instance)->calls.emplace_back("destroy");
  };
  v.start = [](void *i) {
    return step(i, "start", static_cast<Plugin *>(i)->fail_start, "no device found");
  };
  v.stop = [](void *i) { return step(i, "stop", false, ""); };
  return v;
}

} // namespace

TEST(SourceLifecycle, StepsRunInOrderAndTheInstanceIsStoppedAndDestroyedOnce) {
  Plugin plugin;
  g_plugin = &plugin;
  const prof_source_vtable v = vtable();
  prof_host_api api{};
  api.log = &log;
  FakeHost host;
  {
    prof::core::SourceLifecycle lifecycle("fake", v);
    host.lifecycle = &lifecycle;
    ASSERT_TRUE(lifecycle.create(api, &host));
    EXPECT_TRUE(lifecycle.configure()) << "a step the plugin does not have succeeds";
    ASSERT_TRUE(lifecycle.start());
    EXPECT_TRUE(lifecycle.running());
    lifecycle.destroy();
    lifecycle.destroy();
    EXPECT_FALSE(lifecycle.running());
    EXPECT_EQ(lifecycle.instance(), nullptr);
  }
  EXPECT_EQ(plugin.calls, (std::vector<std::string>{"create", "start", "stop", "destroy"}));
}

TEST(SourceLifecycle, AFailedStepSaysWhatThePluginLoggedInItAndOnlyThat) {
  Plugin plugin;
  plugin.fail_start = true;
  g_plugin = &plugin;
  const prof_source_vtable v = vtable();
  prof_host_api api{};
  api.log = &log;
  FakeHost host;
  prof::core::SourceLifecycle lifecycle("fake", v, "/x/libfake.so");
  host.lifecycle = &lifecycle;
  ASSERT_TRUE(lifecycle.create(api, &host));
  api.log(&host, PROF_LOG_ERROR, "said between steps");
  EXPECT_EQ(host.shown, std::vector<std::string>{"said between steps"});
  EXPECT_FALSE(lifecycle.start());
  EXPECT_EQ(lifecycle.error(), "plugin 'fake': start failed: no device found");
  EXPECT_EQ(host.shown.size(), 1u) << "the step's error is said once, with the failure";
  EXPECT_FALSE(lifecycle.running());
  EXPECT_TRUE(lifecycle.stop()) << "nothing runs to stop";
}

TEST(SourceLifecycle, StepsBeforeCreateAndAFailedCreateNameThePlugin) {
  prof_source_vtable v = vtable();
  v.create = [](const prof_host_api *api, void *host) -> void * {
    api->log(host, PROF_LOG_ERROR, "no driver");
    return nullptr;
  };
  prof_host_api api{};
  api.log = &log;
  FakeHost host;
  prof::core::SourceLifecycle lifecycle("fake", v, "/x/libfake.so");
  host.lifecycle = &lifecycle;
  EXPECT_FALSE(lifecycle.start());
  EXPECT_EQ(lifecycle.error(), "plugin 'fake': start before create");
  EXPECT_FALSE(lifecycle.create(api, &host));
  EXPECT_EQ(lifecycle.error(), "plugin 'fake' (/x/libfake.so): create failed: no driver");
  EXPECT_TRUE(host.shown.empty());
}
