// Fuzzes the trigger folder's requests as an agent reads them: any bytes
// either parse into a request that reads back the same from its own text,
// or are refused with a reason. Never a crash, whatever a shared folder holds.
#include "core/control/trigger_request.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace prof::control;
  std::string error;
  const auto request =
      parse_trigger_request(std::string_view(reinterpret_cast<const char *>(data), size), &error);
  if (!request) {
    if (error.empty()) std::abort();
    return 0;
  }
  const auto again = parse_trigger_request(encode_trigger_request(*request), &error);
  if (!again || again->id != request->id || again->capture_steps != request->capture_steps ||
      again->at_step != request->at_step || again->options != request->options ||
      again->output != request->output || trigger_arguments(*again) != trigger_arguments(*request))
    std::abort();
  return 0;
}
