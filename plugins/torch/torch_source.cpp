#include "torch_source.hpp"

#include "running_python.hpp"

#include <prof/declared_options.hpp>
#include <prof/profiler_api.h>
#include <prof/python/python_startup.hpp>
#include <prof/tsc_clock.hpp>

#include <cstdlib>

namespace prof::torch {

bool TorchSource::configure() {
  const DeclaredOptions declared(host_, kOptions);
  options_.operators = declared.flag("operators");
  options_.shapes = declared.flag("shapes");
  options_.collectives = declared.flag("collectives");
  options_.ranges = declared.flag("ranges");
  options_.memory = declared.flag("memory");
  options_.steps = std::string(declared.text("steps"));
  if (options_.steps.empty()) {
    host_.error("option steps: expected auto, none or the name of the range that is one step");
    return false;
  }
  options_.process_marks_steps = [] { return prof_steps_marked() == 1; };
  return true;
}

bool TorchSource::start() {
  if (started_) return true;
  TscClock::enable(); // every call costs two timestamps
  if (recorder_ == nullptr) recorder_ = new_lasting_recorder(host_, options_);
  set_active_recorder(recorder_);
  started_ = true;
  // What the bridge in each Python process reads: its loader, prof_torch.
  setenv("PROF_TORCH_SHAPES", options_.shapes ? "1" : "0", 1);
  const void *anchor = reinterpret_cast<const void *>(&set_active_recorder);
  if (const std::string problem = python::run_at_python_startup(anchor, "prof_torch");
      !problem.empty())
    host_.log(PROF_LOG_WARN, problem);
  // Attached to a running interpreter: start prof_torch in it now.
  start_in_running_python(python::python_site_folder(anchor));
  return true;
}

bool TorchSource::stop() {
  if (!started_) return true;
  started_ = false;
  if (active_recorder() == recorder_) set_active_recorder(nullptr);
  return true;
}

bool TorchSource::suspend() {
  if (started_ && active_recorder() == recorder_) set_active_recorder(nullptr);
  return true;
}

bool TorchSource::resume() {
  if (started_) set_active_recorder(recorder_);
  return true;
}

bool TorchSource::emit_unfinished(uint64_t now) {
  if (started_ && active_recorder() == recorder_) recorder_->emit_unfinished(now);
  return true;
}

} // namespace prof::torch
