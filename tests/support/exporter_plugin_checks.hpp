// Checks every built exporter plugin's tests make: its file options, a
// complete vtable, one export through that vtable, and begin's refusal
// without a path.
#pragma once

#include "tests/support/loaded_plugin.hpp"
#include <prof/testing/fake_export_host.hpp>

#include <prof/plugin.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace prof::testing {

/// `path`: a string without a default (required); `overwrite`: a bool, false.
inline void expect_path_and_overwrite_options(const prof_plugin_descriptor &d) {
  const prof_option_desc *path = find_option(d, "path");
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(path->type, PROF_OPTION_STRING);
  EXPECT_EQ(path->default_value, nullptr);
  const prof_option_desc *overwrite = find_option(d, "overwrite");
  ASSERT_NE(overwrite, nullptr);
  EXPECT_EQ(overwrite->type, PROF_OPTION_BOOL);
  EXPECT_STREQ(overwrite->default_value, "false");
}

/// The vtable is this SDK's size and has every function.
inline void expect_complete_exporter_vtable(const prof_exporter_vtable &vt) {
  EXPECT_EQ(vt.struct_size, sizeof(prof_exporter_vtable));
  EXPECT_NE(vt.create, nullptr);
  EXPECT_NE(vt.destroy, nullptr);
  EXPECT_NE(vt.begin, nullptr);
  EXPECT_NE(vt.consume, nullptr);
  EXPECT_NE(vt.end, nullptr);
}

/// create, begin, consume `events`, end, destroy; whether all succeeded.
inline bool export_through_vtable(const prof_exporter_vtable &vt, FakeExportHost &host,
                                  const std::vector<prof_event> &events) {
  void *instance = vt.create(host.api(), &host);
  EXPECT_NE(instance, nullptr);
  if (instance == nullptr) return false;
  const bool ok = vt.begin(instance) == PROF_OK &&
                  vt.consume(instance, events.data(), events.size()) == PROF_OK &&
                  vt.end(instance) == PROF_OK;
  vt.destroy(instance);
  return ok;
}

/// Without a path, begin fails with the error users read: "NAME: option path is required".
inline void expect_begin_requires_path(const prof_exporter_vtable &vt, const std::string &name) {
  FakeExportHost bare;
  void *instance = vt.create(bare.api(), &bare);
  ASSERT_NE(instance, nullptr);
  EXPECT_EQ(vt.begin(instance), PROF_ERROR);
  EXPECT_EQ(bare.errors(), (std::vector<std::string>{name + ": option path is required"}));
  vt.destroy(instance);
}

} // namespace prof::testing
