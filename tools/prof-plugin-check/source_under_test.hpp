// One instance of the checked source plugin, driven step by step through
// its vtable against its own CheckingHost. Keep it until the checker ends:
// its host then outlives the instance, so a thread that emits after
// destroy() is caught, not a crash.
#pragma once

#include "tools/prof-plugin-check/checking_host.hpp"

#include <memory>
#include <string>

namespace prof::plugin_check {

/// The outcome of one vtable call: ok, or what failed and why.
struct StepOutcome {
  bool ok = true;
  std::string reason; ///< "start failed: no device", "start failed without saying why"
  /// Whether the plugin logged an error saying why.
  bool explained = false;
};

class SourceUnderTest {
public:
  SourceUnderTest(const core::PluginInfo &plugin, core::OptionValues options,
                  EventFindings &findings);
  ~SourceUnderTest(); ///< destroys the instance if it still lives
  SourceUnderTest(const SourceUnderTest &) = delete;
  SourceUnderTest &operator=(const SourceUnderTest &) = delete;

  StepOutcome create();
  StepOutcome configure();
  StepOutcome start();
  StepOutcome stop();
  StepOutcome suspend();
  StepOutcome resume();
  StepOutcome flush();
  void destroy();

private:
  StepOutcome call(const char *step, prof_status (*fn)(void *));

  const core::PluginInfo &plugin_;
  std::unique_ptr<CheckingHost> host_;
  void *instance_ = nullptr;
};

} // namespace prof::plugin_check
