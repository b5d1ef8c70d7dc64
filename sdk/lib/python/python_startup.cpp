#include <prof/python/python_startup.hpp>

#include <dlfcn.h>

#include <cstdlib>

namespace prof::python {
namespace {

/// Whether `list` (entries separated by `separator`) holds `entry`.
bool lists(std::string_view list, std::string_view entry, char separator) {
  while (!list.empty()) {
    const size_t end = list.find(separator);
    if (list.substr(0, end) == entry) return true;
    if (end == std::string_view::npos) break;
    list.remove_prefix(end + 1);
  }
  return false;
}

std::string_view variable(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

} // namespace

std::string python_site_folder(const void *anchor) {
  Dl_info info{};
  if (dladdr(anchor, &info) == 0 || info.dli_fname == nullptr) return "";
  const std::string file = info.dli_fname;
  const auto slash = file.rfind('/');
  return (slash == std::string::npos ? std::string(".") : file.substr(0, slash)) + "/python-site";
}

std::string run_at_python_startup(const void *anchor, std::string_view module) {
  const std::string folder = python_site_folder(anchor);
  if (folder.empty()) return "cannot find the plugin's own file; Python programs are not followed";
  // Every process of the tree preloads the plugins: the first put it there.
  // First, ahead of a place the agent may have offered it last (import prof).
  const std::string_view path = variable("PYTHONPATH");
  if (!path.starts_with(folder + ":") && path != folder) {
    std::string joined = folder;
    for (std::string_view rest = path; !rest.empty();) {
      const size_t end = rest.find(':');
      const std::string_view entry = rest.substr(0, end);
      if (entry != folder) joined += ":" + std::string(entry);
      if (end == std::string_view::npos) break;
      rest.remove_prefix(end + 1);
    }
    setenv("PYTHONPATH", joined.c_str(), 1);
  }
  const std::string_view startup = variable("PROF_PYTHON_STARTUP");
  if (!lists(startup, module, ';')) {
    const std::string joined =
        startup.empty() ? std::string(module) : std::string(startup) + ";" + std::string(module);
    setenv("PROF_PYTHON_STARTUP", joined.c_str(), 1);
  }
  return "";
}

void offer_python_site(const std::string &folder) {
  const std::string_view path = variable("PYTHONPATH");
  if (lists(path, folder, ':')) return;
  const std::string joined = path.empty() ? folder : std::string(path) + ":" + folder;
  setenv("PYTHONPATH", joined.c_str(), 1);
}

} // namespace prof::python
