#include <prof/stats/memory_log.hpp>

#include <algorithm>
#include <map>
#include <numeric>

namespace prof::stats {
namespace {

std::vector<MemoryBlock> by_bytes(const std::map<uint64_t, MemoryBlock> &live) {
  std::vector<MemoryBlock> blocks;
  blocks.reserve(live.size());
  for (const auto &[address, block] : live)
    blocks.push_back(block);
  std::stable_sort(blocks.begin(), blocks.end(),
                   [](const MemoryBlock &a, const MemoryBlock &b) { return a.bytes > b.bytes; });
  return blocks;
}

} // namespace

MemoryLog::Key MemoryLog::key_of(prof_string_id key) {
  if (auto known = keys_.find(key); known != keys_.end()) return known->second;
  const std::string_view text = host_.string(key);
  Key kind = Key::Other;
  if (text == PROF_MEMORY_ARG_OPERATION)
    kind = Key::Operation;
  else if (text == PROF_MEMORY_ARG_ADDRESS)
    kind = Key::Address;
  else if (text == PROF_MEMORY_ARG_BYTES)
    kind = Key::Bytes;
  else if (text == PROF_MEMORY_ARG_MEMORY)
    kind = Key::Memory;
  else if (text == PROF_MEMORY_ARG_CORRELATION)
    kind = Key::Correlation;
  return keys_.emplace(key, kind).first->second;
}

int MemoryLog::operation_of(prof_string_id value) {
  if (auto known = operations_.find(value); known != operations_.end()) return known->second;
  const std::string_view text = host_.string(value);
  return operations_.emplace(value, text == "alloc" ? 1 : text == "free" ? 0 : -1).first->second;
}

bool MemoryLog::is_device_memory(prof_string_id memory) const {
  if (memory == 0) return true;
  if (auto known = device_memory_.find(memory); known != device_memory_.end()) return known->second;
  return device_memory_.emplace(memory, host_.string(memory) == "device").first->second;
}

void MemoryLog::add_event(const prof_event &e, prof_track_id device) {
  if (e.type != PROF_EVENT_INSTANT || e.kind != PROF_CATEGORY_MEMORY || device == 0) return;
  MemoryOp op;
  op.ts = e.ts;
  op.device = device;
  int operation = -1;
  bool address = false, bytes = false;
  const auto unsigned_value = [](const prof_arg &a, uint64_t &out) {
    if (a.type == PROF_ARG_UINT)
      out = a.value.u;
    else if (a.type == PROF_ARG_INT && a.value.i >= 0)
      out = static_cast<uint64_t>(a.value.i);
    else
      return false;
    return true;
  };
  for (const prof_arg &a : host_.args(e.args)) {
    switch (key_of(a.key)) {
    case Key::Operation:
      if (a.type == PROF_ARG_STRING) operation = operation_of(a.value.s);
      break;
    case Key::Address:
      address = unsigned_value(a, op.address);
      break;
    case Key::Bytes:
      bytes = unsigned_value(a, op.bytes);
      break;
    case Key::Memory:
      if (a.type == PROF_ARG_STRING) op.memory = a.value.s;
      break;
    case Key::Correlation:
      unsigned_value(a, op.correlation);
      break;
    case Key::Other:
      break;
    }
  }
  if (operation < 0 || !address || !bytes) return;
  op.alloc = operation == 1;
  ops_.push_back(op);
}

void MemoryLog::add_call(const prof_event &slice) {
  if (slice.type == PROF_EVENT_SLICE && slice.id != 0)
    calls_.try_emplace(slice.id, MemoryCall{slice.name, slice.track});
}

void MemoryLog::merge(MemoryLog &other) {
  ops_.insert(ops_.end(), other.ops_.begin(), other.ops_.end());
  for (const auto &[id, call] : other.calls_)
    calls_.try_emplace(id, call);
  other.ops_.clear();
  other.calls_.clear();
}

const MemoryCall *MemoryLog::call(uint64_t correlation) const {
  if (correlation == 0) return nullptr;
  auto found = calls_.find(correlation);
  return found == calls_.end() ? nullptr : &found->second;
}

std::vector<DeviceMemoryUse> MemoryLog::analyze() const {
  // Time order; report order among equal times (a free before the
  // allocation that reuses its address).
  std::vector<size_t> order(ops_.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [this](size_t a, size_t b) { return ops_[a].ts < ops_[b].ts; });
  std::vector<DeviceMemoryUse> uses;
  std::map<prof_track_id, size_t> index; // device -> its entry in uses
  for (size_t i : order)
    if (index.try_emplace(ops_[i].device, uses.size()).second)
      uses.push_back(DeviceMemoryUse{ops_[i].device});

  for (DeviceMemoryUse &use : uses) {
    // One pass finds the peak (the op after which it is first reached) and
    // the leaks; a second, up to that op, what was live then.
    const auto replay = [&](size_t until, bool count) {
      std::map<uint64_t, MemoryBlock> live; // by address
      uint64_t used = 0;
      size_t peak_at = order.size();
      for (size_t n = 0; n < until; ++n) {
        const MemoryOp &op = ops_[order[n]];
        if (op.device != use.device) continue;
        auto found = live.find(op.address);
        if (!op.alloc && found == live.end()) {
          use.unmatched_frees += count;
          continue;
        }
        if (found != live.end()) { // a free, or an allocation whose free was lost
          if (is_device_memory(found->second.memory)) used -= found->second.bytes;
          live.erase(found);
        }
        if (op.alloc) {
          live.emplace(op.address,
                       MemoryBlock{op.address, op.bytes, op.memory, op.correlation, op.ts});
          if (is_device_memory(op.memory)) used += op.bytes;
        }
        use.allocs += count && op.alloc;
        use.frees += count && !op.alloc;
        if (count && used > use.peak_bytes) {
          use.peak_bytes = used;
          use.peak_ts = op.ts;
          peak_at = n;
        }
      }
      return std::make_pair(std::move(live), peak_at);
    };
    auto [at_end, peak_at] = replay(order.size(), true);
    use.leaks = by_bytes(at_end);
    if (peak_at < order.size()) {
      std::map<uint64_t, MemoryBlock> at_peak = replay(peak_at + 1, false).first;
      std::erase_if(at_peak,
                    [&](const auto &entry) { return !is_device_memory(entry.second.memory); });
      use.at_peak = by_bytes(at_peak);
    }
  }
  return uses;
}

} // namespace prof::stats
