// Typed views of the raw perf_event ring records cpu-perf asks for, and the
// parser that decodes them. Pure functions: tests feed synthetic records.
#ifndef PROF_PLUGINS_CPU_PERF_PERF_RECORDS_HPP
#define PROF_PLUGINS_CPU_PERF_PERF_RECORDS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace prof::cpu_perf {

/// What the parser must know about how the events were opened.
struct RecordLayout {
  uint64_t sample_type = 0;      ///< perf_event_attr::sample_type of every event
  uint64_t sample_regs_user = 0; ///< perf_event_attr::sample_regs_user
  uint64_t read_format = 0;      ///< perf_event_attr::read_format (READ records)
};

/// The sample_id_all trailer and the common identity of a record.
struct RecordId {
  int32_t pid = -1;
  int32_t tid = -1;
  uint64_t time = 0;
  uint32_t cpu = 0;
};

struct SampleRecord {
  RecordId id;
  uint64_t ip = 0;
  bool ip_in_kernel = false;         ///< misc says the ip is a kernel address
  std::vector<uint64_t> callchain;   ///< raw, context markers included
  uint64_t regs_abi = 0;             ///< PERF_SAMPLE_REGS_ABI_*
  std::vector<uint64_t> regs;        ///< user registers, in mask bit order
  std::span<const uint8_t> stack;    ///< copied user stack (points into the raw buffer)
};

struct MmapRecord {
  RecordId id;
  uint64_t addr = 0, len = 0, pgoff = 0;
  uint32_t prot = 0;
  bool executable = true;
  std::string filename;
};

struct CommRecord {
  RecordId id;
  bool exec = false;
  std::string comm;
};

/// FORK and EXIT share one layout.
struct TaskRecord {
  RecordId id; ///< id.pid/tid: the new (fork) or ending (exit) task
  int32_t ppid = 0, ptid = 0;
  uint64_t task_time = 0;
  bool fork = true;
};

struct SwitchRecord {
  RecordId id;
  bool out = false;       ///< switched out (else in)
  bool preempted = false; ///< switched out while still runnable
  int32_t other_pid = -1; ///< CPU-wide records only: the next/previous task
  int32_t other_tid = -1;
};

struct LostRecord {
  RecordId id;
  uint64_t lost = 0;
};

struct ReadRecord {
  RecordId id;
  uint64_t value = 0;
  uint64_t event_id = 0;
};

enum class RecordKind { Sample, Mmap, Comm, Fork, Exit, Switch, Lost, Read, Other };

/// Where one record of a raw byte stream starts, its kind and time.
struct RawRecord {
  const uint8_t *data = nullptr;
  uint16_t size = 0;
  uint32_t type = 0;
  uint16_t misc = 0;
};

/// Splits a stream of whole records into records; stops at a truncated one.
std::vector<RawRecord> split_records(std::span<const uint8_t> stream);

/// Shrinks every sample's user-stack copy in `stream` (whole records) to the
/// bytes the kernel filled (dyn_size), moving the records together in place;
/// returns the bytes kept. A DWARF sample reserves its full copy (16 KiB by
/// default) whatever the stack's depth.
size_t trim_stack_copies(std::span<uint8_t> stream, const RecordLayout &layout);

/// Decoders: nullopt when the record is too short for its layout.
std::optional<RecordId> decode_id(const RawRecord &r, const RecordLayout &layout);
std::optional<SampleRecord> decode_sample(const RawRecord &r, const RecordLayout &layout);
std::optional<MmapRecord> decode_mmap(const RawRecord &r, const RecordLayout &layout);
std::optional<CommRecord> decode_comm(const RawRecord &r, const RecordLayout &layout);
std::optional<TaskRecord> decode_task(const RawRecord &r, const RecordLayout &layout);
std::optional<SwitchRecord> decode_switch(const RawRecord &r, const RecordLayout &layout);
std::optional<LostRecord> decode_lost(const RawRecord &r, const RecordLayout &layout);
std::optional<ReadRecord> decode_read(const RawRecord &r, const RecordLayout &layout);
RecordKind kind_of(const RawRecord &r);

/// Callchain marker values (PERF_CONTEXT_*) are at or above this.
constexpr uint64_t kContextMax = static_cast<uint64_t>(-4095);

} // namespace prof::cpu_perf

#endif
