#include "cupti_library.hpp"

#include <dlfcn.h>

namespace prof::cuda {
namespace {

template <class F> bool resolve(void *library, const char *name, F &function, std::string &error) {
  function = reinterpret_cast<F>(dlsym(library, name));
  if (function == nullptr && error.empty()) error = std::string("CUPTI lacks ") + name;
  return function != nullptr;
}

} // namespace

std::string CuptiLibrary::describe(CUptiResult result) const {
  const char *text = nullptr;
  if (get_result_string != nullptr && get_result_string(result, &text) == CUPTI_SUCCESS && text)
    return text;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

const CuptiLibrary *open_cupti(const std::string &path, std::string &error) {
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char *reason = dlerror();
    error = "cannot load CUPTI (" + path + "): " + (reason ? reason : "unknown error");
    return nullptr;
  }
  auto *cupti = new CuptiLibrary;
  error.clear();
  bool ok = resolve(library, "cuptiGetResultString", cupti->get_result_string, error);
  ok &= resolve(library, "cuptiGetCallbackName", cupti->get_callback_name, error);
  ok &= resolve(library, "cuptiActivityRegisterCallbacks", cupti->register_callbacks, error);
  ok &= resolve(library, "cuptiActivityEnable", cupti->enable, error);
  ok &= resolve(library, "cuptiActivityDisable", cupti->disable, error);
  ok &= resolve(library, "cuptiActivityFlushAll", cupti->flush_all, error);
  ok &= resolve(library, "cuptiActivityGetNextRecord", cupti->next_record, error);
  ok &= resolve(library, "cuptiActivityGetNumDroppedRecords", cupti->dropped_records, error);
  ok &= resolve(library, "cuptiActivitySetAttribute", cupti->set_attribute, error);
  ok &= resolve(library, "cuptiGetTimestamp", cupti->timestamp, error);
  if (!ok) {
    delete cupti;
    dlclose(library);
    return nullptr;
  }
  // Newer than the rest: optional, the source copes without them.
  std::string optional;
  resolve(library, "cuptiActivityRegisterTimestampCallback", cupti->register_timestamp_callback,
          optional);
  resolve(library, "cuptiActivityFlushPeriod", cupti->flush_period, optional);
  resolve(library, "cuptiSetThreadIdType", cupti->set_thread_id_type, optional);
  return cupti;
}

} // namespace prof::cuda
