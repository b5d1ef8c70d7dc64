// The protobuf wire format as both directions of the perfetto plugin see it:
// the SDK's wire types, field tags and varint sizes (proto_writer.hpp writes
// them, read/proto_reader.hpp reads them).
#ifndef PROF_PLUGINS_PERFETTO_WIRE_FORMAT_HPP
#define PROF_PLUGINS_PERFETTO_WIRE_FORMAT_HPP

#include <prof/protobuf_wire.hpp>

namespace prof::perfetto {

using protobuf::field_tag;
using protobuf::varint_size;
using protobuf::WireType;

} // namespace prof::perfetto

#endif
