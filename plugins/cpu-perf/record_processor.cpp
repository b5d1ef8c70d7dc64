#include "record_processor.hpp"

#include "dwarf_unwinder.hpp"
#include "kernel_symbols.hpp"

#include <linux/perf_event.h>

#include <algorithm>

namespace prof::cpu_perf {

void RecordProcessor::seed(const ProcessSnapshot &snapshot) {
  for (const auto &m : snapshot.maps) spaces_.map(m.pid, m.start, m.len, m.pgoff, m.path);
  threads_ = snapshot.threads;
  for (const auto &[tid, thread] : threads_)
    if (thread.name == kInProcessSamplerThread) sampled_inside_.insert(thread.pid);
}

void RecordProcessor::add_frame(std::vector<Frame> &frames, int32_t pid, uint64_t addr,
                                bool kernel, bool return_address) {
  if (frames.size() >= static_cast<size_t>(options_.depth)) return;
  if (kernel || is_kernel_address(addr)) {
    frames.push_back(Frame{-1, addr, true});
    return;
  }
  if (addr < 0x1000) return; // the end of a frame-pointer chain, or garbage from code without one
  // A return address points after its call; the call names the caller.
  const uint64_t lookup = return_address && addr > 0 ? addr - 1 : addr;
  const Location loc = spaces_.locate(pid, lookup);
  // Anonymous executable memory (JIT code, "//anon") has no file to name it.
  const std::string *path = loc.module >= 0 ? &spaces_.module_path(loc.module) : nullptr;
  const bool file_backed =
      path && ((path->starts_with('/') && !path->starts_with("//")) || *path == "[vdso]");
  frames.push_back(file_backed ? Frame{loc.module, loc.offset, false} : Frame{-1, addr, false});
}

void RecordProcessor::unwind_user(const SampleRecord &s, std::vector<Frame> &frames) {
  if (s.regs_abi == PERF_SAMPLE_REGS_ABI_NONE || s.regs.size() < 17) return;
  const int32_t pid = s.id.pid;
  const ModuleLookup lookup = [&](uint64_t pc, uint64_t &vaddr) -> ElfModule * {
    const Location loc = spaces_.locate(pid, pc);
    if (loc.module < 0) return nullptr;
    ElfModule *m = symbolizer_.module(spaces_.module_path(loc.module));
    const auto v = m ? m->vaddr_of(loc.offset) : std::nullopt;
    if (!v) return nullptr;
    vaddr = *v;
    return m;
  };
  const int room = options_.depth - static_cast<int>(frames.size());
  const auto pcs = unwind_stack(s.regs, s.stack, lookup, std::max(room, 0));
  for (size_t i = 0; i < pcs.size(); ++i) add_frame(frames, pid, pcs[i], false, i > 0);
}

void RecordProcessor::on_sample(const RawRecord &r, Capture &out) {
  auto s = decode_sample(r, layout_);
  if (!s) {
    ++out.bad_records;
    return;
  }
  if (sampled_inside_.contains(s->id.pid)) return;
  Sample sample{s->id.time, s->id.pid, s->id.tid, s->id.cpu, {}};
  // Kernel frames come first in a callchain; without kernel stacks a sample
  // taken in the kernel still shows one "[kernel]" leaf.
  bool kernel_ctx = false, first_in_ctx = true, saw_kernel = false;
  for (uint64_t ip : s->callchain) {
    if (ip >= kContextMax) {
      kernel_ctx = ip == static_cast<uint64_t>(PERF_CONTEXT_KERNEL);
      first_in_ctx = true;
      continue;
    }
    if (kernel_ctx) saw_kernel = true;
    if (kernel_ctx && !options_.kernel) continue;
    add_frame(sample.frames, s->id.pid, ip, kernel_ctx, !first_in_ctx);
    first_in_ctx = false;
  }
  if (s->ip_in_kernel && !saw_kernel)
    sample.frames.insert(sample.frames.begin(), Frame{-1, options_.kernel ? s->ip : 0, true});
  if (options_.backtrace == Backtrace::Dwarf) unwind_user(*s, sample.frames);
  if (sample.frames.empty()) add_frame(sample.frames, s->id.pid, s->ip, s->ip_in_kernel, false);
  if (sample.frames.size() > static_cast<size_t>(options_.depth))
    sample.frames.resize(static_cast<size_t>(options_.depth));
  out.samples.push_back(std::move(sample));
}

void RecordProcessor::begin(uint64_t begin) {
  states_ = ThreadStates(begin);
  kept_.clear();
}

void RecordProcessor::feed(const std::vector<std::vector<uint8_t>> &stores, uint64_t limit,
                           Capture &out) {
  struct Timed {
    uint64_t time;
    RawRecord record;
  };
  std::vector<Timed> all;
  const std::vector<uint8_t> earlier = std::move(kept_);
  kept_.clear();
  auto collect = [&](std::span<const uint8_t> store) {
    for (const RawRecord &r : split_records(store)) {
      const auto id = decode_id(r, layout_);
      if (!id) {
        ++out.bad_records;
        continue;
      }
      all.push_back({id->time, r});
    }
  };
  collect(earlier);
  for (const auto &store : stores)
    collect(store);
  std::stable_sort(all.begin(), all.end(),
                   [](const Timed &a, const Timed &b) { return a.time < b.time; });
  for (const Timed &t : all) {
    if (t.time > limit) {
      kept_.insert(kept_.end(), t.record.data, t.record.data + t.record.size);
      continue;
    }
    on_record(t.time, t.record, out);
  }
  out.append({.states = states_.take()});
}

void RecordProcessor::finish(uint64_t end, const std::vector<std::vector<uint8_t>> &stores,
                             Capture &out) {
  feed(stores, UINT64_MAX, out);
  out.append({.states = states_.finish(end)});
}

void RecordProcessor::on_record(uint64_t time, const RawRecord &r, Capture &out) {
  switch (kind_of(r)) {
  case RecordKind::Sample:
    on_sample(r, out);
    break;
  case RecordKind::Mmap:
    if (auto m = decode_mmap(r, layout_); m && m->executable)
      spaces_.map(m->id.pid, m->addr, m->len, m->pgoff, m->filename);
    break;
  case RecordKind::Comm:
    if (auto c = decode_comm(r, layout_)) {
      threads_[c->id.tid] = ThreadInfo{c->id.pid, c->comm};
      if (c->exec) spaces_.exec(c->id.pid);
      if (c->exec)
        sampled_inside_.erase(c->id.pid); // a new program, which may not sample itself
      else if (c->comm == kInProcessSamplerThread)
        sampled_inside_.insert(c->id.pid);
    }
    break;
  case RecordKind::Fork:
    if (auto f = decode_task(r, layout_)) {
      if (f->id.pid != f->ppid) spaces_.fork(f->ppid, f->id.pid);
      ThreadInfo info{f->id.pid, ""};
      if (auto parent = threads_.find(f->ptid); parent != threads_.end())
        info.name = parent->second.name;
      threads_[f->id.tid] = info;
      states_.on_start(time, f->id.tid);
    }
    break;
  case RecordKind::Exit:
    if (auto e = decode_task(r, layout_)) states_.on_exit(time, e->id.tid);
    break;
  case RecordKind::Switch:
    if (auto w = decode_switch(r, layout_))
      states_.on_switch(time, w->id.tid, w->id.cpu, w->out, w->preempted);
    break;
  case RecordKind::Lost:
    if (auto l = decode_lost(r, layout_))
      (r.type == PERF_RECORD_LOST ? out.lost_records : out.lost_samples) += l->lost;
    break;
  case RecordKind::Read:
    if (auto v = decode_read(r, layout_)) {
      auto counter = counter_ids_.find(v->event_id);
      if (counter != counter_ids_.end())
        out.counters.push_back({v->id.pid, v->id.tid, counter->second, time, v->value});
    }
    break;
  case RecordKind::Other:
    break;
  }
}

} // namespace prof::cpu_perf
