#include "perf_records.hpp"

#include <linux/perf_event.h>

#include <cstddef>
#include <cstring>

namespace prof::cpu_perf {
namespace {

/// A bounds-checked cursor over one record's bytes.
class Cursor {
public:
  Cursor(const uint8_t *data, size_t size) : data_(data), size_(size) {}
  bool ok() const { return ok_; }
  size_t left() const { return ok_ ? size_ - at_ : 0; }
  template <class T> T get() {
    T value{};
    if (!need(sizeof(T))) return value;
    std::memcpy(&value, data_ + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  const uint8_t *take(size_t n) {
    if (!need(n)) return nullptr;
    const uint8_t *p = data_ + at_;
    at_ += n;
    return p;
  }
  std::string c_string(size_t limit) {
    const size_t n = std::min(limit, left());
    const auto *p = reinterpret_cast<const char *>(data_ + at_);
    const size_t len = strnlen(p, n);
    at_ += len;
    return std::string(p, len);
  }

private:
  bool need(size_t n) {
    if (!ok_ || size_ - at_ < n) ok_ = false;
    return ok_;
  }
  const uint8_t *data_;
  size_t size_;
  size_t at_ = 0;
  bool ok_ = true;
};

size_t trailer_size(uint64_t t) {
  size_t n = 0;
  if (t & PERF_SAMPLE_TID) n += 8;
  if (t & PERF_SAMPLE_TIME) n += 8;
  if (t & PERF_SAMPLE_ID) n += 8;
  if (t & PERF_SAMPLE_STREAM_ID) n += 8;
  if (t & PERF_SAMPLE_CPU) n += 8;
  if (t & PERF_SAMPLE_IDENTIFIER) n += 8;
  return n;
}

constexpr size_t kHeader = sizeof(perf_event_header);

/// The body of a non-sample record (after the header, before the trailer).
Cursor body(const RawRecord &r, const RecordLayout &layout) {
  const size_t trailer = trailer_size(layout.sample_type);
  const size_t size = r.size >= kHeader + trailer ? r.size - kHeader - trailer : 0;
  return Cursor(r.data + kHeader, size);
}

} // namespace

std::vector<RawRecord> split_records(std::span<const uint8_t> stream) {
  std::vector<RawRecord> out;
  size_t at = 0;
  while (stream.size() - at >= kHeader) {
    perf_event_header h;
    std::memcpy(&h, stream.data() + at, kHeader);
    if (h.size < kHeader || h.size > stream.size() - at) break;
    out.push_back(RawRecord{stream.data() + at, h.size, h.type, h.misc});
    at += h.size;
  }
  return out;
}

size_t trim_stack_copies(std::span<uint8_t> stream, const RecordLayout &layout) {
  if (!(layout.sample_type & PERF_SAMPLE_STACK_USER)) return stream.size();
  size_t kept = 0;
  for (const RawRecord &r : split_records(stream)) {
    uint8_t *record = stream.data() + (r.data - stream.data());
    size_t size = r.size;
    const auto sample = r.type == PERF_RECORD_SAMPLE ? decode_sample(r, layout) : std::nullopt;
    if (sample && sample->stack.data() != nullptr) {
      // [size][data][dyn_size][rest] -> [filled][data: filled bytes][dyn_size][rest]
      const size_t data_at = static_cast<size_t>(sample->stack.data() - r.data);
      uint64_t copied = 0;
      std::memcpy(&copied, record + data_at - 8, 8);
      const uint64_t filled = (sample->stack.size() + 7) & ~uint64_t{7};
      if (filled < copied) {
        // A copy of size 0 has no dyn_size after it.
        const size_t tail_at = data_at + copied + (filled == 0 ? 8 : 0);
        std::memmove(record + data_at + filled, record + tail_at, size - tail_at);
        std::memcpy(record + data_at - 8, &filled, 8);
        size -= tail_at - (data_at + filled);
        const auto header_size = static_cast<uint16_t>(size);
        std::memcpy(record + offsetof(perf_event_header, size), &header_size, 2);
      }
    }
    if (record != stream.data() + kept) std::memmove(stream.data() + kept, record, size);
    kept += size;
  }
  return kept;
}

RecordKind kind_of(const RawRecord &r) {
  switch (r.type) {
  case PERF_RECORD_SAMPLE: return RecordKind::Sample;
  case PERF_RECORD_MMAP:
  case PERF_RECORD_MMAP2: return RecordKind::Mmap;
  case PERF_RECORD_COMM: return RecordKind::Comm;
  case PERF_RECORD_FORK: return RecordKind::Fork;
  case PERF_RECORD_EXIT: return RecordKind::Exit;
  case PERF_RECORD_SWITCH:
  case PERF_RECORD_SWITCH_CPU_WIDE: return RecordKind::Switch;
  case PERF_RECORD_LOST:
  case PERF_RECORD_LOST_SAMPLES: return RecordKind::Lost;
  case PERF_RECORD_READ: return RecordKind::Read;
  default: return RecordKind::Other;
  }
}

std::optional<RecordId> decode_id(const RawRecord &r, const RecordLayout &layout) {
  if (r.type == PERF_RECORD_SAMPLE) {
    auto s = decode_sample(r, layout);
    return s ? std::optional(s->id) : std::nullopt;
  }
  const uint64_t t = layout.sample_type;
  const size_t trailer = trailer_size(t);
  if (r.size < kHeader + trailer) return std::nullopt;
  Cursor c(r.data + r.size - trailer, trailer);
  RecordId id;
  if (t & PERF_SAMPLE_TID) {
    id.pid = c.get<int32_t>();
    id.tid = c.get<int32_t>();
  }
  if (t & PERF_SAMPLE_TIME) id.time = c.get<uint64_t>();
  if (t & PERF_SAMPLE_ID) c.get<uint64_t>();
  if (t & PERF_SAMPLE_STREAM_ID) c.get<uint64_t>();
  if (t & PERF_SAMPLE_CPU) id.cpu = c.get<uint32_t>();
  return id;
}

std::optional<SampleRecord> decode_sample(const RawRecord &r, const RecordLayout &layout) {
  const uint64_t t = layout.sample_type;
  if (t & (PERF_SAMPLE_READ | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK)) return std::nullopt;
  Cursor c(r.data + kHeader, r.size - kHeader);
  SampleRecord s;
  const uint16_t cpumode = r.misc & PERF_RECORD_MISC_CPUMODE_MASK;
  s.ip_in_kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
  if (t & PERF_SAMPLE_IDENTIFIER) c.get<uint64_t>();
  if (t & PERF_SAMPLE_IP) s.ip = c.get<uint64_t>();
  if (t & PERF_SAMPLE_TID) {
    s.id.pid = c.get<int32_t>();
    s.id.tid = c.get<int32_t>();
  }
  if (t & PERF_SAMPLE_TIME) s.id.time = c.get<uint64_t>();
  if (t & PERF_SAMPLE_ADDR) c.get<uint64_t>();
  if (t & PERF_SAMPLE_ID) c.get<uint64_t>();
  if (t & PERF_SAMPLE_STREAM_ID) c.get<uint64_t>();
  if (t & PERF_SAMPLE_CPU) {
    s.id.cpu = c.get<uint32_t>();
    c.get<uint32_t>();
  }
  if (t & PERF_SAMPLE_PERIOD) c.get<uint64_t>();
  if (t & PERF_SAMPLE_CALLCHAIN) {
    const uint64_t nr = c.get<uint64_t>();
    if (!c.ok() || nr > c.left() / 8) return std::nullopt;
    s.callchain.resize(nr);
    for (auto &ip : s.callchain) ip = c.get<uint64_t>();
  }
  if (t & PERF_SAMPLE_REGS_USER) {
    s.regs_abi = c.get<uint64_t>();
    if (s.regs_abi != PERF_SAMPLE_REGS_ABI_NONE) {
      s.regs.resize(static_cast<size_t>(__builtin_popcountll(layout.sample_regs_user)));
      for (auto &reg : s.regs) reg = c.get<uint64_t>();
    }
  }
  if (t & PERF_SAMPLE_STACK_USER) {
    const uint64_t size = c.get<uint64_t>();
    if (size > 0) {
      const uint8_t *data = c.take(size);
      const uint64_t dyn_size = c.get<uint64_t>();
      if (data != nullptr) s.stack = {data, static_cast<size_t>(std::min(size, dyn_size))};
    }
  }
  if (!c.ok()) return std::nullopt;
  return s;
}

std::optional<MmapRecord> decode_mmap(const RawRecord &r, const RecordLayout &layout) {
  auto id = decode_id(r, layout);
  if (!id) return std::nullopt;
  Cursor c = body(r, layout);
  MmapRecord m;
  m.id = *id;
  m.id.pid = c.get<int32_t>();
  m.id.tid = c.get<int32_t>();
  m.addr = c.get<uint64_t>();
  m.len = c.get<uint64_t>();
  m.pgoff = c.get<uint64_t>();
  if (r.type == PERF_RECORD_MMAP2) {
    c.take(24); // maj, min, ino, ino_generation (or build id)
    m.prot = c.get<uint32_t>();
    c.get<uint32_t>(); // flags
    m.executable = (m.prot & 0x4) != 0; // PROT_EXEC
  } else {
    m.executable = (r.misc & PERF_RECORD_MISC_MMAP_DATA) == 0;
  }
  if (!c.ok()) return std::nullopt;
  m.filename = c.c_string(4096);
  return m;
}

std::optional<CommRecord> decode_comm(const RawRecord &r, const RecordLayout &layout) {
  auto id = decode_id(r, layout);
  if (!id) return std::nullopt;
  Cursor c = body(r, layout);
  CommRecord m;
  m.id = *id;
  m.id.pid = c.get<int32_t>();
  m.id.tid = c.get<int32_t>();
  m.exec = (r.misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
  if (!c.ok()) return std::nullopt;
  m.comm = c.c_string(64);
  return m;
}

std::optional<TaskRecord> decode_task(const RawRecord &r, const RecordLayout &layout) {
  auto id = decode_id(r, layout);
  if (!id) return std::nullopt;
  Cursor c = body(r, layout);
  TaskRecord m;
  m.id = *id;
  m.fork = r.type == PERF_RECORD_FORK;
  m.id.pid = c.get<int32_t>();
  m.ppid = c.get<int32_t>();
  m.id.tid = c.get<int32_t>();
  m.ptid = c.get<int32_t>();
  m.task_time = c.get<uint64_t>();
  if (!c.ok()) return std::nullopt;
  return m;
}

std::optional<SwitchRecord> decode_switch(const RawRecord &r, const RecordLayout &layout) {
  auto id = decode_id(r, layout);
  if (!id) return std::nullopt;
  SwitchRecord m;
  m.id = *id;
  m.out = (r.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
  m.preempted = m.out && (r.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
  if (r.type == PERF_RECORD_SWITCH_CPU_WIDE) {
    Cursor c = body(r, layout);
    m.other_pid = c.get<int32_t>();
    m.other_tid = c.get<int32_t>();
    if (!c.ok()) return std::nullopt;
  }
  return m;
}

std::optional<LostRecord> decode_lost(const RawRecord &r, const RecordLayout &layout) {
  auto id = decode_id(r, layout);
  if (!id) return std::nullopt;
  Cursor c = body(r, layout);
  LostRecord m;
  m.id = *id;
  if (r.type == PERF_RECORD_LOST) c.get<uint64_t>(); // event id
  m.lost = c.get<uint64_t>();
  if (!c.ok()) return std::nullopt;
  return m;
}

std::optional<ReadRecord> decode_read(const RawRecord &r, const RecordLayout &layout) {
  auto id = decode_id(r, layout);
  if (!id) return std::nullopt;
  Cursor c = body(r, layout);
  ReadRecord m;
  m.id = *id;
  m.id.pid = c.get<int32_t>();
  m.id.tid = c.get<int32_t>();
  m.value = c.get<uint64_t>();
  if (layout.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) c.get<uint64_t>();
  if (layout.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) c.get<uint64_t>();
  if (layout.read_format & PERF_FORMAT_ID) m.event_id = c.get<uint64_t>();
  if (!c.ok()) return std::nullopt;
  return m;
}

} // namespace prof::cpu_perf
