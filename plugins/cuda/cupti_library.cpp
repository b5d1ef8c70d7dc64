#include "cupti_library.hpp"

#include "dynamic_library.hpp"

namespace prof::cuda {

std::string CuptiLibrary::describe(CUptiResult result) const {
  const char *text = nullptr;
  if (get_result_string != nullptr && get_result_string(result, &text) == CUPTI_SUCCESS && text)
    return text;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

const CuptiLibrary *open_cupti(const std::string &path, std::string &error) {
  void *library = open_library(path, "CUPTI", error);
  if (library == nullptr) return nullptr;
  auto *cupti = new CuptiLibrary;
  error.clear(); // names the first entry point missing, if any
  bool ok = resolve(library, "CUPTI", "cuptiGetResultString", cupti->get_result_string, error);
  ok &= resolve(library, "CUPTI", "cuptiGetCallbackName", cupti->get_callback_name, error);
  ok &=
      resolve(library, "CUPTI", "cuptiActivityRegisterCallbacks", cupti->register_callbacks, error);
  ok &= resolve(library, "CUPTI", "cuptiActivityEnable", cupti->enable, error);
  ok &= resolve(library, "CUPTI", "cuptiActivityDisable", cupti->disable, error);
  ok &= resolve(library, "CUPTI", "cuptiActivityFlushAll", cupti->flush_all, error);
  ok &= resolve(library, "CUPTI", "cuptiActivityGetNextRecord", cupti->next_record, error);
  ok &=
      resolve(library, "CUPTI", "cuptiActivityGetNumDroppedRecords", cupti->dropped_records, error);
  ok &= resolve(library, "CUPTI", "cuptiActivitySetAttribute", cupti->set_attribute, error);
  ok &= resolve(library, "CUPTI", "cuptiGetTimestamp", cupti->timestamp, error);
  if (!ok) {
    delete cupti;
    dlclose(library);
    return nullptr;
  }
  // Newer than the rest: optional, the source copes without them.
  std::string optional;
  resolve(library, "CUPTI", "cuptiActivityRegisterTimestampCallback",
          cupti->register_timestamp_callback, optional);
  resolve(library, "CUPTI", "cuptiActivityFlushPeriod", cupti->flush_period, optional);
  resolve(library, "CUPTI", "cuptiSetThreadIdType", cupti->set_thread_id_type, optional);
  return cupti;
}

} // namespace prof::cuda
