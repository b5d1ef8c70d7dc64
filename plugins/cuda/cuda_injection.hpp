// How CUPTI starts in a process: when the CUDA driver initializes (cuInit),
// never before. The plugin points CUDA_INJECTION64_PATH at its own file; the
// driver loads it at cuInit and calls InitializeInjection, which starts the
// waiting source's CUPTI. Processes that never use CUDA (a launcher, a
// shell, a compiler) load neither CUPTI nor the driver.
#ifndef PROF_PLUGINS_CUDA_CUDA_INJECTION_HPP
#define PROF_PLUGINS_CUDA_CUDA_INJECTION_HPP

#include <functional>
#include <string>

/// The CUDA driver's injection entry (CUDA_INJECTION64_PATH), called in cuInit.
extern "C" int InitializeInjection(void);

namespace prof::cuda {

/// Points CUDA at this plugin's file unless the user set another injection;
/// returns a warning when CUDA will not come to prof ("" when it will).
std::string point_cuda_at_this_library();

/// `start` runs once, at the driver's initialization (or not at all).
void wait_for_cuda(std::function<void()> start);
/// Forgets a start still waiting (the source stopped first).
void stop_waiting_for_cuda();

/// Whether this process has loaded the CUDA driver already (attach, late start).
bool cuda_driver_loaded();
/// Whether the CUDA driver is installed, found without loading it (the
/// loader's cache and LD_LIBRARY_PATH); `where` says what was searched.
bool cuda_driver_installed(std::string &where);

} // namespace prof::cuda

#endif
