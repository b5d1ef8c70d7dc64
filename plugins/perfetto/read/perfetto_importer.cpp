#include "read/perfetto_importer.hpp"

#include "read/proto_reader.hpp"
#include "read/trace_emitter.hpp"
#include "read/trace_reader.hpp"

#include "perfetto_fields.hpp"

namespace prof::perfetto {
namespace {

/// The highest field number of TracePacket, its extensions included.
constexpr uint64_t kLastPacketField = 1999;

/// How much of a TracePacket `packet` (maybe cut by the head's end) reads
/// as one: 0 not at all, 1 its first field's tag, 2 every field.
int packet_shape(std::string_view packet, bool whole) {
  size_t pos = 0;
  int fields = 0;
  while (pos < packet.size()) {
    uint64_t tag = 0;
    if (!read_varint(packet, pos, tag)) return whole || fields == 0 ? 0 : 1;
    const uint64_t number = tag >> 3;
    const auto wire = static_cast<uint32_t>(tag & 7);
    if (number == 0 || number > kLastPacketField) return 0;
    uint64_t skip = 0;
    switch (wire) {
    case 0:
      if (!read_varint(packet, pos, skip)) return whole ? 0 : 1;
      break;
    case 1:
      skip = 8;
      break;
    case 5:
      skip = 4;
      break;
    case 2:
      if (!read_varint(packet, pos, skip)) return whole ? 0 : 1;
      break;
    default:
      return 0; // groups and wire types that do not exist
    }
    if (wire != 0) {
      if (skip > packet.size() - pos) return whole ? 0 : 1;
      pos += static_cast<size_t>(skip);
    }
    ++fields;
  }
  return whole && fields > 0 ? 2 : fields > 0 ? 1 : 0;
}

} // namespace

uint32_t PerfettoImporter::probe(std::string_view path, std::span<const uint8_t> head) {
  const std::string_view data(reinterpret_cast<const char *>(head.data()), head.size());
  constexpr auto kPacketTag =
      static_cast<char>(field_tag(field::trace::kPacket, WireType::LengthDelimited));
  // A file named as a Perfetto trace that opens like one but breaks later
  // is a damaged trace: this importer says where, better than "no importer".
  const bool named = path.ends_with(".perfetto-trace") || path.ends_with(".pftrace") ||
                     path.ends_with(".perfetto");
  bool opens_like_one = false;
  const auto broken = [&]() -> uint32_t { return named && opens_like_one ? 10 : 0; };
  int whole = 0;
  bool partial = false, reached_end = false;
  size_t pos = 0;
  while (pos < data.size() && whole < 3) {
    if (data[pos] != kPacketTag) return broken(); // a Trace holds packets only
    ++pos;
    uint64_t length = 0;
    if (!read_varint(data, pos, length)) {
      partial = pos >= data.size() && whole > 0; // the head ends inside the length
      break;
    }
    const bool fits = length <= data.size() - pos;
    const std::string_view packet =
        data.substr(pos, fits ? static_cast<size_t>(length) : std::string_view::npos);
    if (whole == 0) opens_like_one = packet_shape(packet, false) > 0;
    const int shape = packet_shape(packet, fits);
    if (shape == 0) return broken();
    if (!fits) {
      partial = true;
      break;
    }
    ++whole;
    pos += static_cast<size_t>(length);
    reached_end = pos == data.size();
  }
  // Three packets that check out, or a small file that is all packets.
  if (whole >= 3 || (whole >= 1 && reached_end && head.size() < 4096)) return 95;
  if (whole == 2) return 90;
  if (whole == 1) return partial ? 85 : 75;
  return partial ? 60 : 0;
}

bool PerfettoImporter::read(const ImportHost &host, const prof_import_request &request) {
  const std::string_view data(reinterpret_cast<const char *>(request.data), request.size);
  ReadTrace trace;
  try {
    read_trace(data, trace);
  } catch (const WireError &e) {
    host.host().error(e.what());
    return false;
  }
  emit_trace(trace, host, request);
  return true;
}

} // namespace prof::perfetto
