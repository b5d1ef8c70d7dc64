// The torch source attached to a process whose CPython already runs (prof
// attach, PROF_MODE=dynamic): its sitecustomize ran long ago, so prof_torch
// is started in the interpreter's main thread through Py_AddPendingCall,
// which CPython allows from any thread. A process that runs no CPython, or
// whose interpreter has not started yet (prof launched it: sitecustomize
// will), is left alone.
#ifndef PROF_PLUGINS_TORCH_RUNNING_PYTHON_HPP
#define PROF_PLUGINS_TORCH_RUNNING_PYTHON_HPP

#include <string>

namespace prof::torch {

/// Schedules `import prof_torch; prof_torch.start()` with `site_folder` on
/// sys.path when this process runs an initialized CPython. Returns whether
/// it did.
bool start_in_running_python(const std::string &site_folder);

} // namespace prof::torch

#endif
