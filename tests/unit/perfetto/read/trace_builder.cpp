#include "trace_builder.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace prof::perfetto::testing {
namespace {

Imported *g_import = nullptr; // the import set_facts reports to

void set_facts(void *, const prof_import_facts *facts) {
  Imported &to = *g_import;
  to.has_facts = true;
  to.program = facts->program ? facts->program : "";
  to.format = facts->format ? facts->format : "";
  to.rank = facts->rank ? facts->rank : "";
  to.pids.assign(facts->pids, facts->pids + facts->pid_count);
  to.realtime_anchor = facts->realtime_anchor_ns;
  to.monotonic_anchor = facts->monotonic_anchor_ns;
  to.start = facts->start_ns;
}

} // namespace

prof::testing::FakeSourceHost::Track Imported::track(const std::string &name) const {
  for (const auto &t : host.tracks())
    if (t.name == name) return t;
  ADD_FAILURE() << "no track named " << name;
  return {};
}

std::vector<prof::testing::FakeSourceHost::Slice> Imported::slices(const std::string &name) const {
  std::vector<prof::testing::FakeSourceHost::Slice> found;
  for (const auto &s : host.slices())
    if (s.name == name) found.push_back(s);
  return found;
}

std::unique_ptr<Imported> import(const std::string &bytes, int64_t rank, int64_t name_rank) {
  auto imported = std::make_unique<Imported>();
  g_import = imported.get();
  const prof_import_api api{sizeof(prof_import_api), imported->host.api(), &set_facts};
  const prof_import_request request{sizeof(prof_import_request),
                                    "test.perfetto-trace",
                                    reinterpret_cast<const uint8_t *>(bytes.data()),
                                    bytes.size(),
                                    rank,
                                    name_rank};
  imported->ok =
      ImporterAdapter<PerfettoImporter>::read(&api, &imported->host, &request) == PROF_OK;
  g_import = nullptr;
  return imported;
}

} // namespace prof::perfetto::testing
