#include "core/runtime/capture_requests.hpp"

#include <prof/profiler_api.h>

#include <algorithm>
#include <cstring>

namespace prof::core {
namespace {

void copy_text(char *to, size_t size, const std::string &text) {
  const size_t bytes = std::min(size - 1, text.size());
  std::memcpy(to, text.data(), bytes);
  to[bytes] = '\0';
}

} // namespace

bool range_matches(std::string_view name, std::string_view domain, std::string_view wanted_name,
                   std::string_view wanted_domain) {
  return name == wanted_name && (wanted_domain == "*" || domain == wanted_domain);
}

void want_capture_requests(ShmHeader &header, uint32_t kinds, const std::string &name,
                           const std::string &domain) {
  copy_text(header.wanted_range_name, sizeof header.wanted_range_name, name);
  copy_text(header.wanted_range_domain, sizeof header.wanted_range_domain, domain);
  header.wanted_requests.store(kinds, std::memory_order_release);
}

bool capture_request_wanted(const ShmHeader &header, uint32_t kind, const char *name,
                            const char *domain) {
  if (kind >= 32 || (header.wanted_requests.load(std::memory_order_acquire) & (1u << kind)) == 0)
    return false;
  if (kind != PROF_CAPTURE_RANGE_BEGIN && kind != PROF_CAPTURE_RANGE_END) return true;
  // Compared as posted: cut to the slot's size.
  const auto cut = [](const char *text, size_t size) {
    const std::string_view view = text ? text : "";
    return view.substr(0, size - 1);
  };
  return range_matches(cut(name, kRequestNameBytes), cut(domain, kRequestDomainBytes),
                       header.wanted_range_name, header.wanted_range_domain);
}

void post_capture_request(ShmHeader &header, const CaptureRequest &request) {
  const uint64_t index = header.capture_requests.fetch_add(1, std::memory_order_acq_rel);
  CaptureRequestSlot &slot = header.capture_request_slots[index % kCaptureRequestSlots];
  slot.sequence.store(0, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  slot.kind = request.kind;
  slot.pid = request.pid;
  slot.ts = request.ts;
  copy_text(slot.name, sizeof slot.name, request.name);
  copy_text(slot.domain, sizeof slot.domain, request.domain);
  slot.sequence.store(index + 1, std::memory_order_release);
}

std::vector<CaptureRequest> CaptureRequestReader::take() {
  std::vector<CaptureRequest> requests;
  const uint64_t posted = header_.capture_requests.load(std::memory_order_acquire);
  if (posted > next_ + kCaptureRequestSlots) {
    lost_ += posted - kCaptureRequestSlots - next_;
    next_ = posted - kCaptureRequestSlots;
  }
  for (; next_ < posted; ++next_) {
    const CaptureRequestSlot &slot = header_.capture_request_slots[next_ % kCaptureRequestSlots];
    // A writer between its claim and its publication: read it next time.
    if (slot.sequence.load(std::memory_order_acquire) != next_ + 1) break;
    CaptureRequest request{slot.kind, slot.pid, slot.ts, {}, {}};
    request.name.assign(slot.name, strnlen(slot.name, sizeof slot.name));
    request.domain.assign(slot.domain, strnlen(slot.domain, sizeof slot.domain));
    if (slot.sequence.load(std::memory_order_acquire) != next_ + 1) {
      ++lost_; // overwritten while being read
      continue;
    }
    requests.push_back(std::move(request));
  }
  return requests;
}

} // namespace prof::core
