#include "core/config/capture_profile.hpp"

#include "tests/support/test_plugins.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

namespace prof::config {
namespace {

namespace fs = std::filesystem;
using Pairs = OptionValues;

class CaptureProfileTest : public ::testing::Test {
protected:
  void SetUp() override {
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("prof-config-test-" + std::to_string(::getpid()) + "-" + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Writes `text` to DIR/profile.yaml and returns the path.
  std::string write(const std::string &text) {
    const fs::path path = dir_ / "profile.yaml";
    std::ofstream(path) << text;
    return path.string();
  }

  CaptureProfile load(const std::string &text) {
    return load_capture_profile(write(text), catalog_);
  }

  /// The error lines loading `text` gives, each with the temp path replaced
  /// by "profile.yaml".
  std::string error_of(const std::string &text) {
    const std::string path = write(text);
    try {
      load_capture_profile(path, catalog_);
    } catch (const ProfileError &error) {
      std::string message = error.what();
      for (auto at = message.find(path); at != std::string::npos; at = message.find(path))
        message.replace(at, path.size(), "profile.yaml");
      return message;
    }
    return "no error";
  }

  fs::path dir_;
  PluginCatalog catalog_ = testing::shipped_catalog();
};

TEST_F(CaptureProfileTest, GoodProfile) {
  CaptureProfile profile = load("# prof capture profile\n"
                                "description: one line\n"
                                "options:\n"
                                "  cpu-utilization: true\n"
                                "  utilization-frequency: 50\n"
                                "  devices: [0, 1]\n"
                                "  print-app-log:\n"
                                "plugins:\n"
                                "  cpu-util:\n"
                                "    frequency: 50\n"
                                "    memory: off\n"
                                "  summary: {}\n"
                                "  trace:\n");
  EXPECT_EQ(profile.description, "one line");
  ASSERT_EQ(profile.options.size(), 4u);
  EXPECT_EQ(profile.options[0].name, "cpu-utilization");
  EXPECT_EQ(profile.options[0].value, "true");
  EXPECT_EQ(profile.options[0].name_at.text(), profile.path + ":4:3");
  EXPECT_EQ(profile.options[1].value, "50");
  EXPECT_EQ(profile.options[1].value_at.text(), profile.path + ":5:26");
  EXPECT_EQ(profile.options[2].value, "0,1");
  EXPECT_FALSE(profile.options[3].has_value);
  ASSERT_EQ(profile.plugins.size(), 3u);
  EXPECT_EQ(profile.plugins[0].name, "cpu-util");
  EXPECT_EQ(profile.plugins[0].options, (Pairs{{"frequency", "50"}, {"memory", "false"}}));
  EXPECT_EQ(profile.plugins[0].at.text(), profile.path + ":9:3");
  EXPECT_EQ(profile.plugins[1].name, "summary");
  EXPECT_TRUE(profile.plugins[1].options.empty());
  EXPECT_EQ(profile.plugins[2].name, "trace");
}

TEST_F(CaptureProfileTest, EmptyFileIsAnEmptyProfile) {
  CaptureProfile profile = load("# nothing yet\n");
  EXPECT_TRUE(profile.options.empty());
  EXPECT_TRUE(profile.plugins.empty());
}

TEST_F(CaptureProfileTest, ShippedProfilesLoad) {
  for (auto name : {"cpu-utilization.yaml", "host-overview.yaml"}) {
    const fs::path path = fs::path(PROF_SOURCE_DIR) / "configs" / name;
    CaptureProfile profile;
    ASSERT_NO_THROW(profile = load_capture_profile(path, catalog_)) << name;
    EXPECT_FALSE(profile.description.empty()) << name;
    bool uses_cpu_util = false;
    for (const auto &plugin : profile.plugins)
      uses_cpu_util |= plugin.name == "cpu-util";
    for (const auto &option : profile.options)
      uses_cpu_util |= option.name == "cpu-utilization" || option.name == "memory-utilization";
    EXPECT_TRUE(uses_cpu_util) << name;
  }
}

TEST_F(CaptureProfileTest, ShippedHostOverview) {
  CaptureProfile profile =
      load_capture_profile(fs::path(PROF_SOURCE_DIR) / "configs" / "host-overview.yaml", catalog_);
  ASSERT_EQ(profile.plugins.size(), 3u);
  EXPECT_EQ(profile.plugins[0].name, "cpu-util");
  EXPECT_EQ(profile.plugins[1].name, "summary");
  EXPECT_EQ(profile.plugins[2].name, "trace");
  EXPECT_EQ(profile.plugins[2].options, (Pairs{{"scope", "all"}}));
}

TEST_F(CaptureProfileTest, MissingFile) {
  try {
    load_capture_profile(dir_ / "absent.yaml", catalog_);
    FAIL() << "no error";
  } catch (const ProfileError &error) {
    EXPECT_EQ(std::string(error.what()),
              (dir_ / "absent.yaml").string() + ": cannot read capture profile: No such file or directory");
  }
}

TEST_F(CaptureProfileTest, YamlSyntaxErrors) {
  EXPECT_EQ(error_of("options:\n  devices: [0, 1\nplugins: {}\n"),
            "profile.yaml:3:8: YAML syntax error: end of sequence flow not found");
  EXPECT_EQ(error_of("description: a: b\n"),
            "profile.yaml:1:15: YAML syntax error: illegal map value");
  EXPECT_EQ(error_of("options:\n  cpu-utilization: true\n bad: 1\n"),
            "profile.yaml:3:2: YAML syntax error: end of map not found");
}

TEST_F(CaptureProfileTest, UnknownPlugin) {
  EXPECT_EQ(error_of("description: x\n"
                     "plugins:\n"
                     "  summary: {}\n"
                     "  cpu-utl:\n"
                     "    frequency: 10\n"),
            "profile.yaml:4:3: plugin 'cpu-utl' is not installed (installed: cpu-util, "
            "summary, trace)");
}

TEST_F(CaptureProfileTest, UnknownPluginOption) {
  EXPECT_EQ(error_of("plugins:\n  cpu-util:\n    freq: 10\n"),
            "profile.yaml:3:5: plugin 'cpu-util' has no option 'freq' (options: frequency, "
            "cpu, memory)");
}

TEST_F(CaptureProfileTest, OutOfRange) {
  EXPECT_EQ(error_of("description: x\n"
                     "options:\n"
                     "  cpu-utilization: true\n"
                     "plugins:\n"
                     "  summary: {}\n"
                     "  cpu-util:\n"
                     "    frequency: 5000\n"),
            "profile.yaml:7:16: option 'frequency' of plugin 'cpu-util': 5000 is out of range "
            "1..1000");
}

TEST_F(CaptureProfileTest, BadValues) {
  EXPECT_EQ(error_of("plugins:\n  summary:\n    mode: total\n"),
            "profile.yaml:3:11: option 'mode' of plugin 'summary': 'total' is not one of "
            "summary, gcu, per-gcu, api");
  EXPECT_EQ(error_of("plugins:\n  cpu-util:\n    cpu: sometimes\n"),
            "profile.yaml:3:10: option 'cpu' of plugin 'cpu-util': 'sometimes' is not a "
            "boolean (true/false, on/off, yes/no, 1/0)");
  EXPECT_EQ(error_of("plugins:\n  cpu-util:\n    frequency:\n"),
            "profile.yaml:3:5: option 'frequency' of plugin 'cpu-util': needs a value");
  EXPECT_EQ(error_of("plugins:\n  cpu-util:\n    frequency: [1, 2]\n"),
            "profile.yaml:3:16: option 'frequency' of plugin 'cpu-util': expected a single "
            "value, not a sequence");
}

TEST_F(CaptureProfileTest, WrongNodeTypes) {
  EXPECT_EQ(error_of("- cpu-util\n- summary\n"),
            "profile.yaml:1:1: a capture profile must be a map with description, options and "
            "plugins, not a sequence");
  EXPECT_EQ(error_of("plugins:\n  - cpu-util\n  - summary\n"),
            "profile.yaml:2:3: 'plugins' must be a map of plugin names to their options, not a "
            "sequence");
  EXPECT_EQ(error_of("options: cpu-utilization\n"),
            "profile.yaml:1:10: 'options' must be a map of option names to values, not a single "
            "value");
  EXPECT_EQ(error_of("plugins:\n  cpu-util: [frequency, 10]\n"),
            "profile.yaml:2:13: plugin 'cpu-util' must be given a map of its options, not a "
            "sequence");
  EXPECT_EQ(error_of("description:\n  text: x\n"),
            "profile.yaml:2:3: 'description' must be one line of text, not a map");
  EXPECT_EQ(error_of("options:\n  devices: {a: 1}\n"),
            "profile.yaml:2:12: option 'devices' must be a single value, not a map");
}

TEST_F(CaptureProfileTest, UnknownTopLevelKey) {
  EXPECT_EQ(error_of("description: x\nplugin:\n  cpu-util: {}\n"),
            "profile.yaml:2:1: unknown key 'plugin' (expected description, options, plugins)");
}

TEST_F(CaptureProfileTest, DuplicateKeys) {
  EXPECT_EQ(error_of("description: a\ndescription: b\n"),
            "profile.yaml:2:1: 'description' is given twice (first at line 1)");
  EXPECT_EQ(error_of("options:\n  cpu-utilization: true\n  cpu-utilization: false\n"),
            "profile.yaml:3:3: option 'cpu-utilization' is given twice (first at line 2)");
  EXPECT_EQ(error_of("plugins:\n  summary: {}\n  summary: {mode: gcu}\n"),
            "profile.yaml:3:3: plugin 'summary' is given twice (first at line 2)");
  EXPECT_EQ(error_of("plugins:\n  cpu-util:\n    cpu: on\n    cpu: off\n"),
            "profile.yaml:4:5: plugin 'cpu-util': option 'cpu' is given twice (first at line 3)");
}

TEST_F(CaptureProfileTest, AllProblemsAreReported) {
  try {
    load("plugins:\n  cpu-utl: {}\n  cpu-util:\n    frequency: 0\n    colour: red\n");
    FAIL() << "no error";
  } catch (const ProfileError &error) {
    ASSERT_EQ(error.errors().size(), 3u);
    EXPECT_NE(error.errors()[0].find(":2:3: plugin 'cpu-utl' is not installed"), std::string::npos);
    EXPECT_NE(error.errors()[1].find(":4:16: option 'frequency'"), std::string::npos);
    EXPECT_NE(error.errors()[2].find(":5:5: plugin 'cpu-util' has no option 'colour'"),
              std::string::npos);
  }
}

TEST_F(CaptureProfileTest, ParseFromText) {
  CaptureProfile profile =
      parse_capture_profile("plugins: {trace: {scope: gcu}}\n", "inline", catalog_);
  EXPECT_EQ(profile.path, "inline");
  EXPECT_EQ(profile.plugins.at(0).options, (Pairs{{"scope", "gcu"}}));
}

} // namespace
} // namespace prof::config
