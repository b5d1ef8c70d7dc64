// The import host (core/import) with importers written in the test: what an
// importer emits and the facts it gives become the report, a refusal writes
// nothing, and events on tracks never declared are left out and counted.
#include "core/import/report_import.hpp"
#include "core/report/report_reader.hpp"
#include "core/runtime/descriptor_check.hpp"
#include "tests/support/build_paths.hpp"
#include "tests/support/scratch_dir.hpp"

#include <prof/plugin.hpp>

#include <gtest/gtest.h>

#include <filesystem>

namespace prof::core {
namespace {

/// Emits two tracks, a slice with an argument, an instant and a flow end,
/// out of time order, and a wall clock.
struct WellFormed {
  static uint32_t probe(std::string_view, std::span<const uint8_t> head) {
    return head.size() >= 4 && std::memcmp(head.data(), "GOOD", 4) == 0 ? 80 : 0;
  }
  static bool read(const ImportHost &import, const prof_import_request &request) {
    const Host &host = import.host();
    const prof_track_id process = host.track(PROF_TRACK_PROCESS, "train.py", 0, 77);
    const prof_track_id thread = host.track(PROF_TRACK_THREAD, "main", process, 77, 78);
    // Two threads of one id, as a file may name them: kept apart.
    const prof_track_id other = host.track(PROF_TRACK_THREAD, "other", process, 77, 78);
    const prof_arg shape = arg_string(host.intern("shape"), host.intern("2x3"));
    host.slice(thread, 5'000, 100, host.intern("late"), host.intern("acme"), 0,
               PROF_CATEGORY_OPERATOR, std::span(&shape, 1));
    host.slice(thread, 1'000, 900, host.intern("outer"), host.intern("acme"), 0,
               PROF_CATEGORY_OPERATOR);
    host.instant(other, 2'000, host.intern("mark"), 0, PROF_CATEGORY_ANNOTATION);
    host.api()->emit_flow(host.context(), thread, 1'000, 9, PROF_FLOW_BEGIN);
    const int32_t pids[] = {77};
    const std::string rank = request.rank >= 0 ? std::to_string(request.rank) : "5";
    const char *details[] = {"backend", "gloo"};
    prof_import_facts facts{sizeof facts};
    facts.program = "train.py";
    facts.format = "acme-v2";
    facts.rank = rank.c_str();
    facts.pids = pids;
    facts.pid_count = 1;
    facts.realtime_anchor_ns = 1'700'000'000'000'000'000;
    facts.monotonic_anchor_ns = 1'000;
    facts.start_ns = 500;
    facts.details = details;
    facts.detail_count = 1;
    import.set_facts(facts);
    return true;
  }
};

/// Refuses every file with one line.
struct Refusing {
  static uint32_t probe(std::string_view, std::span<const uint8_t>) { return 10; }
  static bool read(const ImportHost &import, const prof_import_request &) {
    import.host().error("expected ACME at offset 0");
    return false;
  }
};

/// Emits on a track it never declared, without a wall clock.
struct Careless {
  static uint32_t probe(std::string_view, std::span<const uint8_t>) { return 0; }
  static bool read(const ImportHost &import, const prof_import_request &) {
    const Host &host = import.host();
    const prof_track_id thread = host.track(PROF_TRACK_THREAD, "main", 0, 1, 1);
    host.slice(thread, 10, 5, host.intern("kept"));
    host.slice(4242, 10, 5, host.intern("lost"));
    prof_import_facts facts{sizeof facts};
    facts.start_ns = 10;
    import.set_facts(facts);
    return true;
  }
};

template <class T> PluginInfo importer_info(const char *name) {
  PluginInfo info;
  info.name = name;
  info.version = "2.0.0";
  info.kind = PROF_KIND_IMPORTER;
  info.scope = PROF_SCOPE_SYSTEM;
  info.importer = &importer_vtable<T>;
  return info;
}

TEST(ReportImport, WritesWhatTheImporterEmittedWithItsFacts) {
  testing::ScratchDir dir("prof-import-host");
  const std::string path = dir.file("out.profrep");
  const ImportOutcome outcome = import_file(importer_info<WellFormed>("acme"),
                                            {"runs/r5.acme", "GOOD", std::nullopt, 3}, path);
  EXPECT_EQ(outcome.events, 4u);
  EXPECT_TRUE(outcome.wall_clock);
  EXPECT_EQ(outcome.format, "acme-v2");
  EXPECT_EQ(outcome.invalid_events, 0u);

  report::ReportReader reader;
  ASSERT_TRUE(reader.open(path));
  EXPECT_TRUE(reader.complete());
  const report::Header &header = reader.header();
  EXPECT_EQ(header.session_name, "import");
  EXPECT_EQ(header.argv, std::vector<std::string>{"train.py"});
  EXPECT_EQ(header.command_display, "train.py (imported from r5.acme)");
  EXPECT_EQ(header.rank, "5");
  EXPECT_EQ(header.pids, std::vector<int32_t>{77});
  EXPECT_EQ(header.clock_anchor.realtime_ns, 1'700'000'000'000'000'000u);
  EXPECT_EQ(header.clock_anchor.monotonic_ns, 1'000u);
  EXPECT_EQ(header.session_start_ns, 500u);
  ASSERT_EQ(header.plugins.size(), 1u);
  EXPECT_EQ(header.plugins[0].name, "acme");
  EXPECT_EQ(header.plugins[0].version, "2.0.0");
  EXPECT_EQ(header.plugins[0].options,
            (std::vector<std::pair<std::string, std::string>>{{"format", "acme-v2"},
                                                              {"file", "runs/r5.acme"},
                                                              {"clock", "realtime"},
                                                              {"backend", "gloo"}}));
  int threads = 0;
  for (const auto &[id, track] : reader.tracks())
    threads += track.kind == PROF_TRACK_THREAD ? 1 : 0;
  EXPECT_EQ(threads, 2);
  // In time order, the enclosing slice first at a shared time.
  std::vector<std::string> order;
  for (const prof_event &e : reader.read_all_events())
    order.push_back(e.type == PROF_EVENT_FLOW ? "flow" : std::string(reader.string(e.name)));
  EXPECT_EQ(order, (std::vector<std::string>{"outer", "flow", "mark", "late"}));
  for (const prof_event &e : reader.read_all_events())
    if (e.type == PROF_EVENT_SLICE && reader.string(e.name) == "late") {
      EXPECT_EQ(e.kind, PROF_CATEGORY_OPERATOR);
      const auto set = reader.args().find(static_cast<uint32_t>(e.args));
      ASSERT_TRUE(set);
      ASSERT_EQ(set->size(), 1u);
      EXPECT_EQ(reader.string((*set)[0].value.s), "2x3");
    }
}

TEST(ReportImport, TheUsersRankReachesTheImporter) {
  testing::ScratchDir dir("prof-import-host");
  import_file(importer_info<WellFormed>("acme"), {"r.acme", "GOOD", 9, 3}, dir.file("r.profrep"));
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(dir.file("r.profrep")));
  EXPECT_EQ(reader.header().rank, "9");
}

TEST(ReportImport, ARefusalIsTheImportersLineAndWritesNothing) {
  testing::ScratchDir dir("prof-import-host");
  try {
    import_file(importer_info<Refusing>("acme"), {"x.acme", "junk", std::nullopt, std::nullopt},
                dir.file("x.profrep"));
    FAIL() << "imported a refused file";
  } catch (const ImportRefused &e) {
    EXPECT_STREQ(e.what(), "expected ACME at offset 0");
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.profrep")));
}

TEST(ReportImport, EventsOnUndeclaredTracksAreLeftOutAndCounted) {
  testing::ScratchDir dir("prof-import-host");
  const ImportOutcome outcome =
      import_file(importer_info<Careless>("careless"), {"c", "", std::nullopt, std::nullopt},
                  dir.file("c.profrep"));
  EXPECT_EQ(outcome.events, 1u);
  EXPECT_EQ(outcome.invalid_events, 1u);
  EXPECT_FALSE(outcome.wall_clock);
  report::ReportReader reader;
  ASSERT_TRUE(reader.open(dir.file("c.profrep")));
  // No wall clock: the capture's start stands in for it.
  EXPECT_EQ(reader.header().clock_anchor.realtime_ns, 10u);
  EXPECT_EQ(reader.header().plugins[0].options.at(1),
            (std::pair<std::string, std::string>{"clock", "start"}));
}

TEST(ReportImport, ImporterDescriptorsAreChecked) {
  prof_plugin_descriptor d = importer_descriptor<WellFormed>("acme", "1.0", "ACME", "ACME Inc.");
  EXPECT_EQ(check_descriptor(&d), "");
  EXPECT_EQ(descriptor_importer(&d), &importer_vtable<WellFormed>);
  d.importer = nullptr;
  EXPECT_EQ(check_descriptor(&d), "importer plugin 'acme' has no importer functions");
  prof_importer_vtable half{sizeof(prof_importer_vtable), &ImporterAdapter<WellFormed>::probe,
                            nullptr};
  d.importer = &half;
  EXPECT_EQ(check_descriptor(&d), "plugin 'acme' has an importer without probe/read");
  // A descriptor of ABI 1.10 has no importer field at all.
  d.struct_size = offsetof(prof_plugin_descriptor, importer);
  EXPECT_EQ(descriptor_importer(&d), nullptr);
}

TEST(ReportImport, ImportersAreChosenByTheirProbeOfTheFirstBytes) {
  PluginRegistry registry;
  registry.scan({e2e::kPluginDir});
  const auto json = importers_for(registry, "t.json", R"({"traceEvents": [)");
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json.front()->name, "kineto");
  EXPECT_TRUE(importers_for(registry, "notes.txt", "dear diary").empty());
}

} // namespace
} // namespace prof::core
