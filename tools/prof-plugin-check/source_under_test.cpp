#include "tools/prof-plugin-check/source_under_test.hpp"

namespace prof::plugin_check {
namespace {

StepOutcome failed(const char *step, std::string why) {
  if (why.empty()) return {false, std::string(step) + " failed without saying why", false};
  return {false, std::string(step) + " failed: " + why, true};
}

} // namespace

SourceUnderTest::SourceUnderTest(const core::PluginInfo &plugin, core::OptionValues options,
                                 EventFindings &findings)
    : plugin_(plugin), host_(std::make_unique<CheckingHost>(plugin, std::move(options), findings)) {
}

SourceUnderTest::~SourceUnderTest() { destroy(); }

StepOutcome SourceUnderTest::create() {
  host_->take_error();
  instance_ = plugin_.source->create(host_->api(), host_->context());
  if (instance_ == nullptr) return failed("create", host_->take_error());
  return {};
}

StepOutcome SourceUnderTest::call(const char *step, prof_status (*fn)(void *)) {
  if (fn == nullptr) return {}; // an optional step the plugin does not need
  host_->take_error();
  if (fn(instance_) == PROF_OK) return {};
  return failed(step, host_->take_error());
}

StepOutcome SourceUnderTest::configure() { return call("configure", plugin_.source->configure); }
StepOutcome SourceUnderTest::start() {
  host_->set_phase(SourcePhase::idle);
  return call("start", plugin_.source->start);
}
StepOutcome SourceUnderTest::stop() {
  StepOutcome outcome = call("stop", plugin_.source->stop);
  host_->set_phase(SourcePhase::stopped);
  return outcome;
}
StepOutcome SourceUnderTest::suspend() { return call("suspend", plugin_.source->suspend); }
StepOutcome SourceUnderTest::resume() { return call("resume", plugin_.source->resume); }
StepOutcome SourceUnderTest::flush() {
  host_->set_phase(SourcePhase::flushing);
  StepOutcome outcome = call("flush", plugin_.source->flush);
  host_->set_phase(SourcePhase::stopped);
  return outcome;
}

void SourceUnderTest::destroy() {
  if (instance_ == nullptr) return;
  host_->set_phase(SourcePhase::stopped);
  plugin_.source->destroy(instance_);
  instance_ = nullptr;
  host_->finish();
}

} // namespace prof::plugin_check
