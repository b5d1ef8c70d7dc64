// Loads a plugin in a child process first, as GStreamer's plugin scanner
// does, so a plugin that crashes or hangs while loading is named and refused
// instead of taking prof down with it (prof --plugin-list).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace prof::core {

/// Runs `load` in a child process. nullopt when the child finished, however
/// the load went (the caller then loads in process and finds out again);
/// else why it did not: "crashed while loading (SIGSEGV)" or "did not finish
/// loading within 10 s" (the child is then killed).
std::optional<std::string> probe_load(const std::function<void()> &load,
                                      std::chrono::milliseconds limit);

} // namespace prof::core
