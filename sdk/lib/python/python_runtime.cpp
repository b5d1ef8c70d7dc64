#include <prof/python/python_runtime.hpp>

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

namespace prof::python {

RuntimeLookup find_python_runtime() {
  RuntimeLookup found;
  const auto *version = static_cast<const unsigned long *>(dlsym(RTLD_DEFAULT, "Py_Version"));
  void *thread_state = dlsym(RTLD_DEFAULT, "PyGILState_GetThisThreadState");
  void *code_type = dlsym(RTLD_DEFAULT, "PyCode_Type");
  void *evaluation = dlsym(RTLD_DEFAULT, "_PyEval_EvalFrameDefault");
  if (thread_state == nullptr || code_type == nullptr) return found; // no Python here
  if (version == nullptr) {
    found.problem = "Python older than 3.11 (no Py_Version); its frames are not read";
    return found;
  }
  const int major = static_cast<int>(*version >> 24 & 0xff);
  const int minor = static_cast<int>(*version >> 16 & 0xff);
  const std::string name = std::to_string(major) + "." + std::to_string(minor);
  const InterpreterLayout *layout = major == 3 ? layout_for_minor(minor) : nullptr;
  if (layout == nullptr) {
    found.problem =
        "Python " + name + " is not one prof reads (3.11 to 3.13); its frames are not read";
    return found;
  }
  Dl_info info{};
  void *symbol_entry = nullptr;
  if (evaluation == nullptr || dladdr1(evaluation, &info, &symbol_entry, RTLD_DL_SYMENT) == 0 ||
      symbol_entry == nullptr || static_cast<const ElfW(Sym) *>(symbol_entry)->st_size == 0) {
    found.problem = "Python " + name + " without the size of _PyEval_EvalFrameDefault";
    return found;
  }
  PythonRuntime runtime;
  runtime.minor = minor;
  runtime.layout = layout;
  runtime.this_thread_state = reinterpret_cast<void *(*)()>(thread_state);
  runtime.code_type = reinterpret_cast<uintptr_t>(code_type);
  runtime.eval_begin = reinterpret_cast<uintptr_t>(evaluation);
  runtime.eval_end = runtime.eval_begin + static_cast<const ElfW(Sym) *>(symbol_entry)->st_size;
  found.runtime = runtime;
  return found;
}

} // namespace prof::python
