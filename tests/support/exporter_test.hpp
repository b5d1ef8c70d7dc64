// What every exporter's tests share: a scratch folder with the output path
// in it, and one run of the exporter over batches of events.
#pragma once

#include "tests/support/scratch_dir.hpp"
#include <prof/testing/fake_export_host.hpp>

#include <prof/plugin.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace prof::testing {

/// begin, consume for each batch, end; whether every call succeeded.
template <class Exporter>
bool run_exporter(Exporter &exporter, const std::vector<std::vector<prof_event>> &batches) {
  if (!exporter.begin()) return false;
  for (const auto &batch : batches)
    if (!exporter.consume(batch.data(), batch.size())) return false;
  return exporter.end();
}

/// A capture in which process 77 exec'd after its first events: its process
/// track ("mpirun") and its main thread's ("mpirun-main") are renamed
/// "./app (rank 0)" and "app" after the events and before the end; thread 78
/// ("helper") keeps its name. Runs `Exporter` over it from `host` (its
/// options set); whether every call succeeded.
template <class Exporter> bool run_renamed_during_capture(FakeExportHost &host) {
  const prof_track_id process = host.add_track(PROF_TRACK_PROCESS, "mpirun", 0, 77);
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "mpirun-main", process, 77, 77);
  const prof_track_id helper = host.add_track(PROF_TRACK_THREAD, "helper", process, 77, 78);
  const std::vector<prof_event> events = {host.slice(thread, "close", 100, 5),
                                          host.slice(helper, "poll", 120, 5)};
  Exporter exporter(host.host());
  if (!exporter.begin() || !exporter.consume(events.data(), events.size())) return false;
  host.rename_track(process, "./app (rank 0)");
  host.rename_track(thread, "app");
  return exporter.end();
}

template <class Exporter> class ExporterTest : public ::testing::Test {
protected:
  explicit ExporterTest(const std::string &output_name) : path_(dir_.file(output_name)) {}

  /// Exports `batches` to path_, or where the test pointed the host's "path".
  bool run(FakeExportHost &host, const std::vector<std::vector<prof_event>> &batches) {
    if (!host_has_path_) host.set_option("path", path_);
    Exporter exporter(host.host());
    return run_exporter(exporter, batches);
  }
  std::vector<std::string> files() const { return dir_.file_names(); }

  ScratchDir dir_;
  std::string path_;
  bool host_has_path_ = false;
};

} // namespace prof::testing
