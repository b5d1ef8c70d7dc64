#include "core/report/record_codec.hpp"

#include <prof/byte_codec.hpp>

#include <algorithm>

namespace prof::report {
namespace {

// prof_track_kind has no fixed underlying type: only 0..15 may be stored in it.
constexpr uint32_t kMaxTrackKindValue = 15;
constexpr uint8_t kFooterKilledBySignal = 1;

template <typename Record, typename DecodeOne>
bool decode_list(std::span<const uint8_t> payload, std::vector<Record> &out, DecodeOne decode_one) {
  ByteReader in(payload);
  const size_t n = in.count();
  out.clear();
  out.reserve(n);
  for (size_t i = 0; i < n && in.ok(); ++i)
    decode_one(in, out.emplace_back());
  return in.ok() && in.at_end();
}

} // namespace

void encode_header(const Header &h, uint32_t format_version, std::vector<uint8_t> &out) {
  ByteWriter w(out);
  w.u32(format_version);
  w.string(h.session_name);
  w.varint(h.argv.size());
  for (const auto &arg : h.argv)
    w.string(arg);
  w.string(h.command_display);
  w.varint(h.pids.size());
  for (int32_t pid : h.pids)
    w.svarint(pid);
  w.string(h.host_name);
  w.varint(h.plugins.size());
  for (const auto &p : h.plugins) {
    w.string(p.name);
    w.string(p.version);
    w.varint(p.options.size());
    for (const auto &[key, value] : p.options) {
      w.string(key);
      w.string(value);
    }
  }
  w.u64(h.clock_anchor.realtime_ns);
  w.u64(h.clock_anchor.monotonic_ns);
  w.u64(h.session_start_ns);
  w.string(h.rank);       // added after the first release: readers take it when present
  w.string(h.world_size); // added later still, likewise
}

bool peek_format_version(std::span<const uint8_t> payload, uint32_t &version) {
  ByteReader in(payload);
  version = in.u32();
  return in.ok();
}

bool decode_header(std::span<const uint8_t> payload, Header &h) {
  ByteReader in(payload);
  h = Header{};
  h.format_version = in.u32();
  h.session_name = in.string();
  h.argv.resize(in.count());
  for (auto &arg : h.argv)
    arg = in.string();
  h.command_display = in.string();
  h.pids.resize(in.count());
  for (auto &pid : h.pids)
    pid = in.svarint32();
  h.host_name = in.string();
  h.plugins.resize(in.count());
  for (auto &p : h.plugins) {
    p.name = in.string();
    p.version = in.string();
    p.options.resize(in.count());
    for (auto &[key, value] : p.options) {
      key = in.string();
      value = in.string();
    }
  }
  h.clock_anchor.realtime_ns = in.u64();
  h.clock_anchor.monotonic_ns = in.u64();
  h.session_start_ns = in.u64();
  if (in.ok() && !in.at_end()) h.rank = in.string();
  if (in.ok() && !in.at_end()) h.world_size = in.string();
  return in.ok();
}

void encode_strings(uint32_t first_id, std::span<const std::string_view> texts,
                    std::vector<uint8_t> &out) {
  ByteWriter w(out);
  w.varint(first_id);
  w.varint(texts.size());
  for (auto text : texts)
    w.string(text);
}

bool decode_strings(std::span<const uint8_t> payload, uint32_t &first_id,
                    std::vector<std::string> &texts) {
  ByteReader in(payload);
  first_id = in.varint32();
  texts.resize(in.count());
  for (auto &text : texts)
    text = in.string();
  return in.ok() && in.at_end() && uint64_t{first_id} + texts.size() <= uint64_t{UINT32_MAX} + 1;
}

void encode_tracks(std::span<const TrackRecord> tracks, std::vector<uint8_t> &out) {
  ByteWriter w(out);
  w.varint(tracks.size());
  for (const auto &t : tracks) {
    w.varint(t.id);
    w.varint(static_cast<uint32_t>(t.kind));
    w.varint(t.parent);
    w.string(t.name);
    w.svarint(t.pid);
    w.svarint(t.tid);
    w.svarint(t.index);
    w.string(t.unit);
    w.varint(t.clock);
  }
}

bool decode_tracks(std::span<const uint8_t> payload, std::vector<TrackRecord> &tracks) {
  return decode_list(payload, tracks, [](ByteReader &in, TrackRecord &t) {
    t.id = in.varint32();
    const uint32_t kind = in.varint32();
    if (kind > kMaxTrackKindValue) in.fail();
    t.kind = static_cast<prof_track_kind>(in.ok() ? kind : 0);
    t.parent = in.varint32();
    t.name = in.string();
    t.pid = in.svarint32();
    t.tid = in.svarint32();
    t.index = in.svarint32();
    t.unit = in.string();
    t.clock = in.varint32();
  });
}

void encode_track_flags(std::span<const TrackRecord> tracks, std::vector<uint8_t> &out) {
  ByteWriter w(out);
  w.varint(static_cast<uint64_t>(
      std::count_if(tracks.begin(), tracks.end(), [](const TrackRecord &t) { return t.flags; })));
  for (const auto &t : tracks)
    if (t.flags != 0) {
      w.varint(t.id);
      w.varint(t.flags);
    }
}

bool decode_track_flags(std::span<const uint8_t> payload,
                        std::vector<std::pair<uint32_t, uint32_t>> &flags) {
  return decode_list(payload, flags, [](ByteReader &in, std::pair<uint32_t, uint32_t> &f) {
    f.first = in.varint32();
    f.second = in.varint32();
  });
}

void encode_stacks(std::span<const StackRecord> stacks, std::vector<uint8_t> &out) {
  ByteWriter w(out);
  w.varint(stacks.size());
  for (const auto &s : stacks) {
    w.varint(s.id);
    w.varint(s.frames.size());
    for (uint32_t frame : s.frames)
      w.varint(frame);
  }
}

bool decode_stacks(std::span<const uint8_t> payload, std::vector<StackRecord> &stacks) {
  return decode_list(payload, stacks, [](ByteReader &in, StackRecord &s) {
    s.id = in.varint32();
    s.frames.resize(in.count());
    for (auto &frame : s.frames)
      frame = in.varint32();
  });
}

void encode_args(std::span<const ArgsRecord> sets, std::vector<uint8_t> &out) {
  ByteWriter w(out);
  w.varint(sets.size());
  for (const auto &set : sets) {
    w.varint(set.id);
    w.varint(set.args.size());
    for (const prof_arg &a : set.args) {
      w.varint(a.key);
      w.u8(static_cast<uint8_t>(a.type));
      switch (a.type) {
      case PROF_ARG_INT:
        w.svarint(a.value.i);
        break;
      case PROF_ARG_DOUBLE:
        w.f64(a.value.d);
        break;
      case PROF_ARG_STRING:
      case PROF_ARG_STACK:
        w.varint(static_cast<uint32_t>(a.value.u));
        break;
      default:
        w.varint(a.value.u);
        break;
      }
    }
  }
}

bool decode_args(std::span<const uint8_t> payload, std::vector<ArgsRecord> &sets) {
  bool known_types = true;
  const bool ok = decode_list(payload, sets, [&](ByteReader &in, ArgsRecord &set) {
    set.id = in.varint32();
    set.args.resize(in.count());
    for (prof_arg &a : set.args) {
      a.key = in.varint32();
      a.type = in.u8();
      a.value.u = 0;
      switch (a.type) {
      case PROF_ARG_INT:
        a.value.i = in.svarint();
        break;
      case PROF_ARG_UINT:
        a.value.u = in.varint();
        break;
      case PROF_ARG_DOUBLE:
        a.value.d = in.f64();
        break;
      case PROF_ARG_STRING:
      case PROF_ARG_STACK:
        a.value.u = in.varint32();
        break;
      default:
        known_types = false;
        in.fail();
        break;
      }
    }
  });
  return ok && known_types;
}

void encode_clock_domains(std::span<const ClockDomainRecord> clocks, std::vector<uint8_t> &out) {
  ByteWriter w(out);
  w.varint(clocks.size());
  for (const auto &c : clocks) {
    w.varint(c.id);
    w.string(c.name);
    w.f64(c.frequency_hz);
    w.varint(c.calibration.size());
    for (const auto &pair : c.calibration) {
      w.varint(pair.domain_ticks);
      w.varint(pair.session_ns);
    }
  }
}

bool decode_clock_domains(std::span<const uint8_t> payload,
                          std::vector<ClockDomainRecord> &clocks) {
  return decode_list(payload, clocks, [](ByteReader &in, ClockDomainRecord &c) {
    c.id = in.varint32();
    c.name = in.string();
    c.frequency_hz = in.f64();
    c.calibration.resize(in.count());
    for (auto &pair : c.calibration) {
      pair.domain_ticks = in.varint();
      pair.session_ns = in.varint();
    }
  });
}

void encode_drops(std::span<const DropRecord> drops, std::vector<uint8_t> &out) {
  ByteWriter w(out);
  w.varint(drops.size());
  for (const auto &d : drops) {
    w.varint(d.ring);
    w.svarint(d.tid);
    w.varint(d.dropped);
  }
}

bool decode_drops(std::span<const uint8_t> payload, std::vector<DropRecord> &drops) {
  return decode_list(payload, drops, [](ByteReader &in, DropRecord &d) {
    d.ring = in.varint32();
    d.tid = in.svarint32();
    d.dropped = in.varint();
  });
}

void encode_footer(const Footer &f, std::vector<uint8_t> &out) {
  ByteWriter w(out);
  w.u64(f.end_ns);
  w.u64(f.events_written);
  w.u64(f.dropped);
  w.u32(static_cast<uint32_t>(f.exit_status));
  w.u8(f.killed_by_signal ? kFooterKilledBySignal : 0);
  w.u32(static_cast<uint32_t>(f.signal));
}

bool decode_footer(std::span<const uint8_t> payload, Footer &f) {
  ByteReader in(payload);
  f.end_ns = in.u64();
  f.events_written = in.u64();
  f.dropped = in.u64();
  f.exit_status = static_cast<int32_t>(in.u32());
  f.killed_by_signal = (in.u8() & kFooterKilledBySignal) != 0;
  f.signal = static_cast<int32_t>(in.u32());
  return in.ok();
}

} // namespace prof::report
