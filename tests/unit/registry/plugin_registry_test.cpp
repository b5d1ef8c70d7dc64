// The loader on real .so fixtures: good ones load, each bad one is refused
// with a one-line reason naming the file, and no refusal hides a good plugin.
#include "core/catalog/catalog.hpp"
#include "core/events/event_bus.hpp"
#include "core/plugin_host/console.hpp"
#include "core/plugin_host/plugin_registry.hpp"
#include "core/plugin_host/source_instance.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using prof::core::PluginRegistry;

namespace {
const fs::path fixtures = PROF_FIXTURE_DIR;

std::string refusal_for(const PluginRegistry &registry, const std::string &file) {
  for (const auto &r : registry.refusals())
    if (r.path.filename() == file) return r.message();
  return "";
}
} // namespace

TEST(PluginRegistry, LoadsGoodPluginsAndReadsTheDescriptor) {
  PluginRegistry registry;
  registry.scan({fixtures}, true);
  const auto *good = registry.find("good");
  ASSERT_NE(good, nullptr);
  EXPECT_EQ(good->version, "1.0.0");
  EXPECT_EQ(good->description, "a loader test fixture");
  EXPECT_EQ(good->vendor, "fixture vendor");
  EXPECT_EQ(good->kind, PROF_KIND_SOURCE);
  EXPECT_EQ(good->scope, PROF_SCOPE_SYSTEM);
  EXPECT_EQ(good->abi_major, 1u);
  EXPECT_EQ(good->abi_minor, unsigned(PROF_ABI_MINOR));
  ASSERT_EQ(good->options.size(), 2u);
  EXPECT_STREQ(good->options[0].name, "rate");
  EXPECT_EQ(good->path, fixtures / "libprof-good.so");
}

TEST(PluginRegistry, LoadsAPluginBuiltAgainstTheFrozenFirstAbi) {
  PluginRegistry registry;
  registry.scan({fixtures});
  const auto *old = registry.find("old-minor");
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(old->abi_minor, 0u);
  EXPECT_EQ(old->vendor, ""); // 1.0 descriptors end before the vendor field
  EXPECT_EQ(old->options.size(), 2u);
}

TEST(PluginRegistry, LoadsAFrozenAbi14Plugin) {
  PluginRegistry registry;
  registry.scan({fixtures});
  const auto *four = registry.find("minor-four");
  ASSERT_NE(four, nullptr);
  EXPECT_EQ(four->abi_minor, 4u);
  EXPECT_EQ(four->vendor, "fixture vendor");
  EXPECT_EQ(four->options.size(), 2u);
}

TEST(PluginRegistry, RefusesWrongMajorAbi) {
  PluginRegistry registry;
  registry.scan({fixtures});
  EXPECT_EQ(registry.find("wrong-major"), nullptr);
  EXPECT_EQ(refusal_for(registry, "libprof-wrong-major.so"),
            (fixtures / "libprof-wrong-major.so").string() + ": built for plugin ABI 2." +
                std::to_string(PROF_ABI_MINOR) + ", this prof supports 1.0 to 1." +
                std::to_string(PROF_ABI_MINOR));
}

TEST(PluginRegistry, RefusesMissingEntrySymbol) {
  PluginRegistry registry;
  registry.scan({fixtures});
  EXPECT_EQ(refusal_for(registry, "libprof-no-entry.so"),
            (fixtures / "libprof-no-entry.so").string() +
                ": entry point 'prof_plugin_entry' not found");
}

TEST(PluginRegistry, RefusesDuplicateNameNamingBothFiles) {
  PluginRegistry registry;
  registry.scan({fixtures});
  EXPECT_EQ(refusal_for(registry, "libprof-zz-duplicate.so"),
            (fixtures / "libprof-zz-duplicate.so").string() +
                ": plugin name 'good' is already taken by " +
                (fixtures / "libprof-good.so").string());
  EXPECT_EQ(registry.find("good")->path, fixtures / "libprof-good.so");
}

TEST(PluginRegistry, RefusesEmptyDescriptorFields) {
  PluginRegistry registry;
  registry.scan({fixtures});
  EXPECT_EQ(refusal_for(registry, "libprof-empty-description.so"),
            (fixtures / "libprof-empty-description.so").string() +
                ": descriptor of 'empty-description' has an empty description");
}

TEST(PluginRegistry, RefusesDefaultsTheirOwnTableRefuses) {
  PluginRegistry registry;
  registry.scan({fixtures});
  EXPECT_EQ(registry.find("bad-default"), nullptr);
  EXPECT_EQ(refusal_for(registry, "libprof-bad-default.so"),
            (fixtures / "libprof-bad-default.so").string() +
                ": plugin 'bad-default': option 'rate' has a default '5000' that its own table "
                "refuses: 5000 is out of range 1..100");
  EXPECT_EQ(refusal_for(registry, "libprof-bad-choice.so"),
            (fixtures / "libprof-bad-choice.so").string() +
                ": plugin 'bad-choice': option 'mode' has a default 'medium' that its own table "
                "refuses: 'medium' is not one of fast, slow");
}

TEST(PluginRegistry, WarnsWhenFileNameAndPluginNameDisagree) {
  PluginRegistry registry;
  registry.scan({fixtures});
  ASSERT_NE(registry.find("other-name"), nullptr);
  ASSERT_EQ(registry.warnings().size(), 1u);
  EXPECT_EQ(registry.warnings()[0], (fixtures / "libprof-misnamed.so").string() +
                                        ": provides plugin 'other-name' but its file name says "
                                        "'misnamed'");
}

TEST(PluginRegistry, RefusesAFileThatIsNotASharedObjectAndKeepsTheRest) {
  fs::path dir = fs::temp_directory_path() / ("prof-registry-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "libprof-garbage.so") << "not an ELF file\n";
  fs::copy_file(fixtures / "libprof-good.so", dir / "libprof-good.so",
                fs::copy_options::overwrite_existing);
  PluginRegistry registry;
  registry.scan({dir});
  EXPECT_NE(registry.find("good"), nullptr);
  ASSERT_EQ(registry.refusals().size(), 1u);
  EXPECT_EQ(registry.refusals()[0].message().rfind((dir / "libprof-garbage.so").string() +
                                                       ": cannot be loaded: ",
                                                   0),
            0u)
      << registry.refusals()[0].message();
  fs::remove_all(dir);
}

TEST(PluginRegistry, EveryGoodPluginLoadsDespiteTheBadOnes) {
  PluginRegistry registry;
  registry.scan({fixtures});
  EXPECT_EQ(registry.names(), "create-fails, good, minor-four, other-name, old-minor");
  EXPECT_EQ(registry.refusals().size(), 6u);
}

TEST(PluginRegistry, SearchPathIsInstallFolderThenEnvironmentThenOption) {
  setenv("PROF_PLUGIN_PATH", "/env/a::/env/b", 1);
  auto path = PluginRegistry::search_path({"/opt/extra"});
  unsetenv("PROF_PLUGIN_PATH");
  ASSERT_EQ(path.size(), 4u);
  EXPECT_EQ(path[0].filename(), "plugins");
  EXPECT_EQ(path[1], "/env/a");
  EXPECT_EQ(path[2], "/env/b");
  EXPECT_EQ(path[3], "/opt/extra");
}

TEST(PluginRegistry, CreateThatFailsIsReportedWithTheReason) {
  PluginRegistry registry;
  registry.scan({fixtures});
  const auto *plugin = registry.find("create-fails");
  ASSERT_NE(plugin, nullptr);
  prof::core::Catalog catalog;
  prof::core::EventBus bus({1 << 16, 1 << 15, 2});
  prof::core::Console console;
  prof::core::CaptureContext context{catalog, bus, console};
  prof::core::SourceInstance instance(*plugin, {}, context);
  EXPECT_FALSE(instance.create());
  EXPECT_EQ(instance.error(), "plugin 'create-fails' (" +
                                  (fixtures / "libprof-create-fails.so").string() +
                                  "): create failed: no device found");

  prof::core::SourceInstance good(*registry.find("good"), {}, context);
  EXPECT_TRUE(good.create());
  EXPECT_TRUE(good.configure());
  EXPECT_TRUE(good.start());
  EXPECT_TRUE(good.stop());
}
