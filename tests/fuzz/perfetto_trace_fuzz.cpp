// Fuzzes the perfetto importer: the wire reader and trace reader on any
// bytes, and what reads through the emitter into a fake host. A rejection
// must be WireError, with an offset inside the input; an emitted event must
// name a track the emitter declared.
#include "read/proto_reader.hpp"
#include "read/trace_emitter.hpp"
#include "read/trace_reader.hpp"

#include <prof/testing/fake_source_host.hpp>

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void set_facts(void *, const prof_import_facts *facts) {
  if (facts == nullptr || facts->format == nullptr) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char *>(data), size);
  prof::perfetto::ReadTrace trace;
  try {
    prof::perfetto::read_trace(bytes, trace);
  } catch (const prof::perfetto::WireError &error) {
    if (error.offset() > size) std::abort();
    return 0;
  }
  prof::testing::FakeSourceHost host(0, prof::testing::HostAbi::current);
  const prof_import_api api{sizeof(prof_import_api), host.api(), &set_facts};
  const prof_import_request request{
      sizeof(prof_import_request), "fuzz.perfetto-trace", data, size, -1, -1};
  prof::perfetto::emit_trace(trace, prof::ImportHost(&api, &host), request);
  const size_t tracks = host.tracks().size();
  for (const auto &s : host.slices())
    if (s.track == 0 || s.track > tracks) std::abort();
  for (const auto &i : host.instants())
    if (i.track == 0 || i.track > tracks) std::abort();
  for (const auto &c : host.counters())
    if (c.track == 0 || c.track > tracks) std::abort();
  for (const auto &f : host.flows())
    if (f.track == 0 || f.track > tracks) std::abort();
  for (const auto &s : host.samples())
    if (s.track == 0 || s.track > tracks) std::abort();
  return 0;
}
