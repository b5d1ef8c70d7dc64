#include "prof_code.hpp"

#include <link.h>

#include <string_view>

namespace prof::memory {
namespace {

bool is_prof_library(const char *path) {
  const std::string_view file = path != nullptr ? path : "";
  const size_t slash = file.rfind('/');
  return file.substr(slash == std::string_view::npos ? 0 : slash + 1).starts_with("libprof-");
}

constinit ProfCode g_prof_code;

} // namespace

void ProfCode::refresh() noexcept {
  // Nothing loaded or unloaded since the last refresh: the ranges hold.
  unsigned long long counts[2] = {0, 0};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        auto *out = static_cast<unsigned long long *>(data);
        out[0] = info->dlpi_adds;
        out[1] = info->dlpi_subs;
        return 1;
      },
      counts);
  if (counts[0] == adds_ && counts[1] == subs_) return;
  adds_ = counts[0];
  subs_ = counts[1];
  const size_t next = 1 - current_.load(std::memory_order_relaxed);
  Ranges &ranges = sets_[next];
  size_t count = 0;
  struct Fill {
    Ranges *ranges;
    size_t *count;
  } fill{&ranges, &count};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        auto &[into, count] = *static_cast<Fill *>(data);
        if (!is_prof_library(info->dlpi_name)) return 0;
        for (int i = 0; i < info->dlpi_phnum && *count < kMaxRanges; ++i) {
          const ElfW(Phdr) &segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_LOAD || (segment.p_flags & PF_X) == 0) continue;
          into->begin[*count].store(info->dlpi_addr + segment.p_vaddr, std::memory_order_relaxed);
          into->size[*count].store(segment.p_memsz, std::memory_order_relaxed);
          ++*count;
        }
        return 0;
      },
      &fill);
  ranges.count.store(count, std::memory_order_release);
  current_.store(next, std::memory_order_release);
}

ProfCode &prof_code() { return g_prof_code; }

} // namespace prof::memory
