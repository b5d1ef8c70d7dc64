#include "core/catalog/args_folding.hpp"

#include "core/runtime/event_args_record.hpp"

namespace prof::core {

size_t fold_args(prof_event *events, size_t count, ArgsTable &table) {
  size_t first = 0;
  while (first < count && events[first].type != kArgsRecord)
    ++first;
  if (first == count) return count; // the usual batch: nothing to fold

  size_t out = first > 0 ? first - 1 : 0;
  size_t i = out;
  prof_arg args[PROF_MAX_ARGS];
  while (i < count) {
    prof_event e = events[i++];
    uint32_t n = 0;
    for (; i < count && events[i].type == kArgsRecord; ++i) {
      prof_arg unpacked[kArgsPerRecord];
      const uint32_t got = unpack_args_record(events[i], unpacked);
      for (uint32_t k = 0; k < got && n < PROF_MAX_ARGS; ++k)
        if (unpacked[k].key != 0 && unpacked[k].type >= PROF_ARG_INT &&
            unpacked[k].type <= PROF_ARG_TYPE_LAST)
          args[n++] = unpacked[k];
    }
    if (e.type == kArgsRecord) continue; // its event was never pushed
    if (e.type == PROF_EVENT_SLICE || e.type == PROF_EVENT_INSTANT)
      e.args = n > 0 ? table.intern({args, n}) : e.args;
    events[out++] = e;
  }
  return out;
}

} // namespace prof::core
