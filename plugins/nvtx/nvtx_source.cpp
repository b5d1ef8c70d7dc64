#include "nvtx_source.hpp"

#include "nvtx_handlers.hpp"
#include "nvtx_injection.hpp"

#include <prof/tsc_clock.hpp>

namespace prof::nvtx {

NvtxSource::~NvtxSource() {
  if (started_) stop();
}

bool NvtxSource::start() {
  if (started_) return true;
  if (const std::string warning = point_nvtx_at_this_library(); !warning.empty())
    host_.log(PROF_LOG_WARN, warning);
  // Every range costs two timestamps: the TSC's where it can stand in for the session clock.
  TscClock::enable();
  if (recorder_ == nullptr) recorder_ = annotations::new_lasting_recorder(host_, "nvtx");
  set_active_recorder(recorder_);
  started_ = recording_ = true;
  return true;
}

bool NvtxSource::stop() {
  if (started_) set_active_recorder(nullptr);
  started_ = recording_ = false;
  return true;
}

bool NvtxSource::suspend() {
  if (started_) set_active_recorder(nullptr);
  recording_ = false;
  return true;
}

bool NvtxSource::resume() {
  if (started_) set_active_recorder(recorder_);
  recording_ = started_;
  return true;
}

} // namespace prof::nvtx
