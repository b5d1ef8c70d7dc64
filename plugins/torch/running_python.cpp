#include "running_python.hpp"

#include <dlfcn.h>

namespace prof::torch {
namespace {

std::string *g_code = nullptr; ///< what the pending call runs; kept for CPython

int run_code(void *) {
  using RunString = int (*)(const char *);
  const auto run = reinterpret_cast<RunString>(dlsym(RTLD_DEFAULT, "PyRun_SimpleString"));
  if (run != nullptr && g_code != nullptr) run(g_code->c_str());
  return 0; // an exception is printed by PyRun_SimpleString, and stays Python's
}

/// A Python string literal of `text`: the folder may hold quotes.
std::string python_literal(const std::string &text) {
  std::string literal = "'";
  for (const char c : text) {
    if (c == '\\' || c == '\'') literal += '\\';
    literal += c;
  }
  return literal + "'";
}

} // namespace

bool start_in_running_python(const std::string &site_folder) {
  using IsInitialized = int (*)();
  using AddPendingCall = int (*)(int (*)(void *), void *);
  const auto initialized = reinterpret_cast<IsInitialized>(dlsym(RTLD_DEFAULT, "Py_IsInitialized"));
  const auto add = reinterpret_cast<AddPendingCall>(dlsym(RTLD_DEFAULT, "Py_AddPendingCall"));
  if (initialized == nullptr || add == nullptr || site_folder.empty() || initialized() == 0)
    return false;
  if (g_code == nullptr) {
    const std::string folder = python_literal(site_folder);
    g_code = new std::string("import sys\n"
                             "if " +
                             folder + " not in sys.path: sys.path.insert(0, " + folder +
                             ")\n"
                             "import prof_torch\n"
                             "prof_torch.start()\n");
  }
  return add(&run_code, nullptr) == 0;
}

} // namespace prof::torch
