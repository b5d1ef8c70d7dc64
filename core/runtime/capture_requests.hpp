// Capture requests from profiled processes (prof_start()/prof_stop(),
// annotation ranges) through the shared region: the agent posts them, prof
// reads them in order on its drain thread.
#pragma once

#include "core/runtime/shm_layout.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prof::core {

/// prof's own request kind beside prof_capture_request_kind: an agent that
/// joins a capture following steps says how many steps its process has
/// ended (the name, in decimal).
constexpr uint32_t kCaptureStepPosition = 16;
/// And for --hang-timeout: a thread of the process has been inside one
/// communication call since `ts` (the call's begin), for the nanoseconds
/// the name says (decimal).
constexpr uint32_t kCaptureStall = 17;

struct CaptureRequest {
  uint32_t kind = 0; ///< prof_capture_request_kind
  int32_t pid = 0;
  uint64_t ts = 0; ///< session clock
  std::string name;
  std::string domain;
};

/// Posts a request into `header`'s slots (lock-free, any thread or process).
void post_capture_request(ShmHeader &header, const CaptureRequest &request);

/// Whether range `name` in `domain` ("" the default domain) is the range
/// `wanted_name` in `wanted_domain` ("*": any domain) that prof waits for.
bool range_matches(std::string_view name, std::string_view domain, std::string_view wanted_name,
                   std::string_view wanted_domain);

/// Tells the agents which requests prof reads: `kinds` has a bit
/// (1 << kind) per prof_capture_request_kind; ranges only `name`@`domain`.
void want_capture_requests(ShmHeader &header, uint32_t kinds, const std::string &name,
                           const std::string &domain);
/// Whether prof reads a request of `kind` (for a range: `name` in `domain`,
/// NULL being "" as posted).
bool capture_request_wanted(const ShmHeader &header, uint32_t kind, const char *name,
                            const char *domain);

/// Reads the requests posted since the last call.
class CaptureRequestReader {
public:
  explicit CaptureRequestReader(ShmHeader &header) : header_(header) {}
  /// The new requests, oldest first; a request overwritten before it was
  /// read (more than the slots in one drain period) counts in lost().
  std::vector<CaptureRequest> take();
  uint64_t lost() const { return lost_; }

private:
  ShmHeader &header_;
  uint64_t next_ = 0;
  uint64_t lost_ = 0;
};

} // namespace prof::core
