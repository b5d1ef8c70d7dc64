// The folded exporter (the built .so) fed sample events by a fake host.
#include "folded_stacks.hpp"

#include <prof/plugin.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace {

/// Strings, thread tracks and stacks an exporter can look up.
class FakeFoldedHost {
public:
  prof_string_id intern(const std::string &s) {
    strings_.push_back(s);
    return static_cast<prof_string_id>(strings_.size() - 1);
  }
  prof_track_id thread(const std::string &name) {
    names_.push_back(name);
    tracks_.push_back(prof_track_desc{sizeof(prof_track_desc), PROF_TRACK_THREAD, 0, nullptr, 1,
                                      1, -1, nullptr, 0});
    return static_cast<prof_track_id>(tracks_.size());
  }
  prof_stack_id stack(std::vector<std::string> leaf_first) {
    std::vector<prof_string_id> ids;
    for (const auto &f : leaf_first) ids.push_back(intern(f));
    stacks_.push_back(ids);
    return static_cast<prof_stack_id>(stacks_.size());
  }
  std::map<std::string, std::string> options;
  std::vector<std::string> errors;
  const prof_export_api *api() const { return &kApi; }

private:
  static FakeFoldedHost &self(void *h) { return *static_cast<FakeFoldedHost *>(h); }
  static const char *string(void *h, prof_string_id id) {
    return id < self(h).strings_.size() ? self(h).strings_[id].c_str() : "";
  }
  static const prof_track_desc *track(void *h, prof_track_id id) {
    auto &s = self(h);
    if (id == 0 || id > s.tracks_.size()) return nullptr;
    s.tracks_[id - 1].name = s.names_[id - 1].c_str();
    return &s.tracks_[id - 1];
  }
  static const prof_string_id *stack(void *h, prof_stack_id id, uint32_t *count) {
    auto &s = self(h);
    if (id == 0 || id > s.stacks_.size()) {
      *count = 0;
      return nullptr;
    }
    *count = static_cast<uint32_t>(s.stacks_[id - 1].size());
    return s.stacks_[id - 1].data();
  }
  static const prof_session_info *session_info(void *) { return nullptr; }
  static void print(void *, const char *) {}
  static void log(void *h, prof_log_level level, const char *m) {
    if (level == PROF_LOG_ERROR) self(h).errors.emplace_back(m);
  }
  static const char *get_option(void *h, const char *name) {
    auto found = self(h).options.find(name);
    return found == self(h).options.end() ? nullptr : found->second.c_str();
  }
  static uint64_t dropped_events(void *) { return 0; }
  static constexpr prof_export_api kApi{sizeof(prof_export_api), &string, &track, &stack,
                                        &session_info,           &print,  &log,   &get_option,
                                        &dropped_events};
  std::vector<std::string> strings_{""};
  std::vector<std::string> names_;
  std::vector<prof_track_desc> tracks_;
  std::vector<std::vector<prof_string_id>> stacks_;
};

const prof_exporter_vtable *folded_plugin() {
  static void *handle = dlopen(PROF_BUILD_DIR "/lib/prof/plugins/libprof-folded.so", RTLD_NOW);
  if (handle == nullptr) return nullptr;
  auto entry = reinterpret_cast<prof_plugin_entry_fn>(dlsym(handle, PROF_PLUGIN_ENTRY_SYMBOL));
  return entry ? entry()->exporter : nullptr;
}

prof_event sample(prof_track_id track, prof_stack_id stack) {
  prof_event e{};
  e.type = PROF_EVENT_SAMPLE;
  e.track = track;
  e.id = stack;
  return e;
}

std::string read_all(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool run_export(FakeFoldedHost &host, const std::vector<prof_event> &events) {
  const prof_exporter_vtable *v = folded_plugin();
  if (v == nullptr) return false;
  void *self = v->create(host.api(), &host);
  bool ok = v->begin(self) == PROF_OK && v->consume(self, events.data(), events.size()) == PROF_OK &&
            v->end(self) == PROF_OK;
  v->destroy(self);
  return ok;
}

TEST(FoldedExporter, WritesSortedRootFirstStacksWithThreadNames) {
  const std::string path = ::testing::TempDir() + "/cpu_perf_test.folded";
  std::filesystem::remove(path);
  FakeFoldedHost host;
  host.options["path"] = path;
  const auto worker = host.thread("worker");
  const auto io = host.thread("io");
  const auto deep = host.stack({"leaf", "mid;dle", "main"});
  const auto shallow = host.stack({"main"});
  const prof_event other{PROF_EVENT_SLICE, 0, 0, worker, 0, 0, 1, 1, 0, 0};
  ASSERT_TRUE(run_export(host, {sample(worker, deep), sample(worker, deep), other,
                                sample(io, shallow), sample(worker, shallow)}));
  EXPECT_EQ(read_all(path), "io;main 1\n"
                            "worker;main 1\n"
                            "worker;main;mid:dle;leaf 2\n");
  // Refuses to replace it unless told to.
  FakeFoldedHost again;
  again.options["path"] = path;
  EXPECT_FALSE(run_export(again, {}));
  ASSERT_EQ(again.errors.size(), 1u);
  EXPECT_EQ(again.errors[0], "folded: " + path + " already exists; set overwrite=true to replace it");
  again.options["overwrite"] = "true";
  again.options["thread-frame"] = "false";
  const auto t = again.thread("t");
  const auto s = again.stack({"b", "a"});
  EXPECT_TRUE(run_export(again, {sample(t, s)}));
  EXPECT_EQ(read_all(path), "a;b 1\n");
  std::filesystem::remove(path);
}

TEST(FoldedExporter, PathIsRequired) {
  FakeFoldedHost host;
  EXPECT_FALSE(run_export(host, {}));
  ASSERT_EQ(host.errors.size(), 1u);
  EXPECT_NE(host.errors[0].find("option 'path' is required"), std::string::npos);
}

TEST(FoldedStacks, CleanFrame) {
  EXPECT_EQ(prof::folded::clean_frame("a;b\nc"), "a:b c");
  EXPECT_EQ(prof::folded::clean_frame(""), "[unknown]");
}

} // namespace
