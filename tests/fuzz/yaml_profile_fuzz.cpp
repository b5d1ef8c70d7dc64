// Fuzzes YAML capture profiles: parse_capture_profile, then folding the
// profile into a command line and checking the rules between options, as
// `prof --config FILE` does. Every rejection must be the documented error
// (ProfileError, UsageError); any other exception is a finding.
#include "fuzz_plugin_catalog.hpp"

#include "core/config/capture_profile.hpp"
#include "tools/prof/cli/command_line_parser.hpp"
#include "tools/prof/cli/option_rules.hpp"
#include "tools/prof/cli/profile_merge.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const prof::config::PluginCatalog catalog = prof::fuzz::fuzz_plugin_catalog();
  const std::string text(reinterpret_cast<const char *>(data), size);
  prof::config::CaptureProfile profile;
  try {
    profile = prof::config::parse_capture_profile(text, "fuzz.yaml", catalog);
  } catch (const prof::config::ProfileError &) {
    return 0;
  }
  try {
    prof::cli::CommandLine command = prof::cli::parse_arguments({"--config", "fuzz.yaml", "app"});
    prof::cli::merge_capture_profile(command, profile);
    prof::cli::check_option_rules(command);
  } catch (const prof::cli::UsageError &) {
  }
  return 0;
}
