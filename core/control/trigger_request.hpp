// A capture request in a trigger folder (--trigger-dir): a small JSON file
// that every agent watching the folder reads, on every host that shares it.
//
//   {"id": "20261205T091500-3fa2", "capture_steps": 3, "at_step": 120,
//    "duration_s": 0, "options": ["--enable-activities", "all"],
//    "output": "/shared/out/r%q{RANK}"}
//
// `prof trigger` writes it atomically (a hidden temporary file, renamed);
// the first agent of each host to see a new id starts `prof attach --all`
// with these settings for the processes of its host that watch the folder.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::control {

struct TriggerRequest {
  std::string id;                   ///< letters, digits, '.', '_', '-'; 1 to 64 of them
  uint64_t capture_steps = 0;       ///< --capture-steps K; 0: none
  uint64_t at_step = 0;             ///< --at-step S; 0: prof picks
  double duration_s = 0;            ///< --duration; 0: none
  std::vector<std::string> options; ///< prof's options selecting what to capture
  std::string output;               ///< -o NAME (macros expanded in each process)
};

/// The largest request file read; anything bigger is refused.
inline constexpr size_t kTriggerRequestMaxBytes = 64 * 1024;

/// The request as JSON text.
std::string encode_trigger_request(const TriggerRequest &request);

/// Parses and checks a request; nullopt with `error` ("expected ...") when
/// it is not one. A request needs an id, an output and a bound
/// (capture_steps or duration_s): nobody is there to stop it.
std::optional<TriggerRequest> parse_trigger_request(std::string_view text, std::string *error);

/// The arguments of the prof that carries the request out, after
/// `prof attach --all --trigger-dir DIR`.
std::vector<std::string> trigger_arguments(const TriggerRequest &request);

} // namespace prof::control
