// CUPTI, opened at run time: the plugin loads (for --plugin-list, option
// checks) on machines without the CUDA toolkit, and says what is missing
// only when a capture asks for CUDA.
#ifndef PROF_PLUGINS_CUDA_CUPTI_LIBRARY_HPP
#define PROF_PLUGINS_CUDA_CUPTI_LIBRARY_HPP

#include <cupti.h>

#include <string>

namespace prof::cuda {

/// The CUPTI entry points the cuda source calls, typed from the installed headers.
struct CuptiLibrary {
  decltype(&cuptiGetResultString) get_result_string = nullptr;
  decltype(&cuptiGetCallbackName) get_callback_name = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityRegisterTimestampCallback) register_timestamp_callback = nullptr;
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityFlushPeriod) flush_period = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiActivityGetNumDroppedRecords) dropped_records = nullptr;
  decltype(&cuptiActivitySetAttribute) set_attribute = nullptr;
  decltype(&cuptiSetThreadIdType) set_thread_id_type = nullptr;
  decltype(&cuptiGetTimestamp) timestamp = nullptr;

  /// CUPTI's text for `result` ("CUPTI_ERROR_NOT_INITIALIZED").
  std::string describe(CUptiResult result) const;
};

/// Opens `path` (a file or a library name) and resolves every entry point.
/// Never closed: CUPTI keeps threads and callbacks that outlive a capture.
/// Returns nullptr and sets `error` to a one-line reason when it cannot.
const CuptiLibrary *open_cupti(const std::string &path, std::string &error);

} // namespace prof::cuda

#endif
