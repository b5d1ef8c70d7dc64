#include "function_ranges.hpp"

#include "functions/ranges_api.h"
#include <prof/python/dotted_name.hpp>
#include <prof/python/python_startup.hpp>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

namespace prof::python {
namespace {

struct Entry {
  annotations::Text message;
  const annotations::Domain *domain = nullptr; ///< nullptr: the default domain
};

constexpr int kMaxNames = 1 << 16;

// Trivially destructible where Python may call at exit: the table, the
// counts and the recorder's pointer.
Entry g_entries[kMaxNames];
std::atomic<int> g_named{0};
std::atomic<annotations::AnnotationRecorder *> g_recorder{nullptr};
annotations::AnnotationRecorder *g_naming_recorder = nullptr; ///< the one names belong to
/// Calls entered while the thread's stack of ranges was full: their leaves
/// pop nothing.
thread_local int t_unrecorded = 0;

std::mutex &naming_mutex() {
  static auto *mutex = new std::mutex; // never destroyed: Python may name at exit
  return *mutex;
}

int name_range(const char *name, const char *domain) {
  if (name == nullptr) return -1;
  std::lock_guard lock(naming_mutex());
  annotations::AnnotationRecorder *recorder = g_naming_recorder;
  if (recorder == nullptr) return -1;
  static auto *indexes = new std::map<std::pair<std::string, std::string>, int>;
  const std::string domain_text = domain ? domain : "";
  auto [it, added] = indexes->try_emplace({name, domain_text}, g_named.load());
  if (!added) return it->second;
  if (it->second >= kMaxNames) {
    indexes->erase(it);
    return -1;
  }
  Entry &entry = g_entries[it->second];
  entry.message = recorder->intern(name);
  entry.domain = domain_text.empty() ? nullptr : recorder->create_domain(domain_text);
  g_named.store(it->second + 1, std::memory_order_release);
  return it->second;
}

void enter_range(int index) {
  annotations::AnnotationRecorder *recorder = g_recorder.load(std::memory_order_acquire);
  if (recorder == nullptr || index < 0 || index >= g_named.load(std::memory_order_acquire)) {
    ++t_unrecorded;
    return;
  }
  const Entry &entry = g_entries[index];
  if (recorder->push(entry.domain, entry.message, {}) < 0) ++t_unrecorded;
}

void leave_range(int index) {
  if (t_unrecorded > 0) {
    --t_unrecorded;
    return;
  }
  annotations::AnnotationRecorder *recorder = g_recorder.load(std::memory_order_acquire);
  if (recorder == nullptr || index < 0 || index >= g_named.load(std::memory_order_acquire)) return;
  recorder->pop(g_entries[index].domain);
}

constexpr prof_python_ranges_api kApi = {PROF_PYTHON_RANGES_VERSION, &name_range, &enter_range,
                                         &leave_range};

} // namespace

std::string point_python_at_function_trace(const std::string &functions) {
  setenv("PROF_PYTHON_FUNCTIONS", functions.c_str(), 1);
  return run_at_python_startup(&kApi, "prof_python_functions");
}

bool valid_function_list(const std::string &functions, std::string &problem) {
  std::string_view rest = functions;
  while (true) {
    const auto end = rest.find(';');
    const std::string_view entry = rest.substr(0, end);
    const auto at = entry.find('@');
    const std::string_view target = entry.substr(0, at);
    const auto colon = target.find(':');
    const bool ok =
        (at == std::string_view::npos || at + 1 < entry.size()) &&
        (target == "pytorch" ||
         (colon != std::string_view::npos && is_dotted_name(target.substr(0, colon)) &&
          (target.substr(colon + 1) == "*" || is_dotted_name(target.substr(colon + 1)))));
    if (!ok) {
      problem = "'" + std::string(entry) +
                "': expected pytorch, MODULE:QUALNAME or MODULE:* with an optional @DOMAIN";
      return false;
    }
    if (end == std::string_view::npos) return true;
    rest.remove_prefix(end + 1);
  }
}

void set_function_recorder(annotations::AnnotationRecorder *recorder) {
  if (recorder != nullptr) {
    std::lock_guard lock(naming_mutex());
    if (g_naming_recorder == nullptr) g_naming_recorder = recorder;
    if (g_naming_recorder != recorder) return; // names belong to the first
  }
  g_recorder.store(recorder, std::memory_order_release);
}

} // namespace prof::python

/// The python plugin's offer to its Python module (functions/ranges_api.h).
extern "C" __attribute__((visibility("default"))) const prof_python_ranges_api *
prof_python_ranges() {
  return &prof::python::kApi;
}
