#include "pccl_source.hpp"

#include "nccl_profiler_abi.hpp"

#include <prof/declared_options.hpp>
#include <prof/injection_variable.hpp>
#include <prof/tsc_clock.hpp>

extern "C" prof::pccl::nccl::ProfilerV6 ncclProfiler_v6;

namespace prof::pccl {

bool PcclSource::configure() {
  const DeclaredOptions declared(host_, kOptions);
  detail_ = declared.text("events") == "collectives" ? Detail::collectives : Detail::all;
  return true;
}

bool PcclSource::start() {
  if (started_) return true;
  if (const std::string warning =
          point_injection_at("NCCL_PROFILER_PLUGIN", &ncclProfiler_v6, "NCCL's collectives");
      !warning.empty())
    host_.log(PROF_LOG_WARN, warning);
  TscClock::enable();
  if (recorder_ == nullptr) recorder_ = new_lasting_recorder(host_, detail_);
  recorder_->set_collecting(true);
  install_recorder(recorder_);
  started_ = true;
  return true;
}

bool PcclSource::stop() {
  if (!started_) return true;
  recorder_->set_collecting(false);
  if (const uint64_t dropped = recorder_->take_dropped(); dropped > 0) {
    host_.count_dropped(PROF_DROP_DEVICE_BUFFER_FULL, dropped);
    host_.log(PROF_LOG_WARN, "pccl: " + std::to_string(dropped) +
                                 " NCCL events found every event slot of their communicator "
                                 "in use and were not recorded");
  }
  started_ = false;
  return true;
}

bool PcclSource::suspend() {
  if (started_) recorder_->set_collecting(false);
  return true;
}

bool PcclSource::resume() {
  if (started_) recorder_->set_collecting(true);
  return true;
}

} // namespace prof::pccl
