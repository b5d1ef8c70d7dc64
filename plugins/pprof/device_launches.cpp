#include "device_launches.hpp"

namespace prof::pprof {

void DeviceLaunches::add(const prof_event &e) {
  if (e.type != PROF_EVENT_SLICE || e.id == 0) return;
  if (e.kind == PROF_CATEGORY_KERNEL) {
    kernels_.push_back({e.id, e.track, e.name, e.ts, e.duration});
  } else if (e.kind == PROF_CATEGORY_RUNTIME_API || e.kind == PROF_CATEGORY_DRIVER_API) {
    // A runtime call and the driver call under it share the id: the
    // outermost (earliest, longest) one is the launch.
    const auto [it, added] =
        calls_.try_emplace(e.id, LaunchCall{e.track, e.name, e.ts, e.ts + e.duration});
    if (!added && e.ts < it->second.begin) it->second = {e.track, e.name, e.ts, e.ts + e.duration};
  }
}

std::vector<LaunchedKernel> DeviceLaunches::kernels() const {
  std::vector<LaunchedKernel> out;
  out.reserve(kernels_.size());
  for (const Kernel &k : kernels_) {
    const auto call = calls_.find(k.correlation);
    out.push_back(
        {k.device, k.name, k.ts, k.duration, call == calls_.end() ? nullptr : &call->second});
  }
  return out;
}

} // namespace prof::pprof
