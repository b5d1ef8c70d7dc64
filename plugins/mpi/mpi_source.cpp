#include "mpi_source.hpp"

#include <prof/tsc_clock.hpp>

namespace prof::mpi {

bool MpiSource::start() {
  if (installed_) return true;
  TscClock::enable();
  if (!recorder_) recorder_ = std::make_unique<MpiRecorder>(host_, clock_sync_);
  if (!install_recorder(recorder_.get())) {
    host_.error("mpi: another mpi instance already traces this process");
    return false;
  }
  installed_ = true;
  return true;
}

bool MpiSource::stop() {
  if (installed_) install_recorder(nullptr);
  installed_ = false;
  recorder_.reset();
  return true;
}

bool MpiSource::suspend() {
  if (installed_) install_recorder(nullptr);
  installed_ = false;
  return true;
}

bool MpiSource::resume() {
  if (installed_ || !recorder_) return true;
  installed_ = install_recorder(recorder_.get());
  return true;
}

} // namespace prof::mpi
