#include "core/plugin_host/plugin_registry.hpp"

#include "core/config/option_validator.hpp"
#include "core/plugin_host/plugin_load_probe.hpp"
#include "core/runtime/descriptor_check.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace fs = std::filesystem;

namespace prof::core {

const prof_option_desc *PluginInfo::option(const std::string &key) const {
  for (const auto &o : options)
    if (o.name && key == o.name) return &o;
  return nullptr;
}

const char *kind_name(prof_plugin_kind kind) {
  return kind == PROF_KIND_SOURCE     ? "source"
         : kind == PROF_KIND_EXPORTER ? "exporter"
         : kind == PROF_KIND_IMPORTER ? "importer"
                                      : "?";
}

std::string kinds_of(const PluginInfo &plugin) {
  std::string kinds = kind_name(plugin.kind);
  if (plugin.kind != PROF_KIND_IMPORTER && plugin.importer != nullptr) kinds += ",importer";
  return kinds;
}

const char *scope_name(prof_plugin_scope scope) {
  return scope == PROF_SCOPE_SYSTEM ? "system" : scope == PROF_SCOPE_PROCESS ? "process" : "?";
}

PluginRegistry::PluginRegistry() = default;
PluginRegistry::~PluginRegistry() = default;
PluginRegistry::PluginRegistry(PluginRegistry &&) noexcept = default;
PluginRegistry &PluginRegistry::operator=(PluginRegistry &&) noexcept = default;

std::vector<fs::path> PluginRegistry::search_path(const std::vector<fs::path> &extra) {
  std::vector<fs::path> folders;
  boost::dll::fs::error_code ec;
  fs::path exe = boost::dll::program_location(ec);
  if (!ec)
    folders.push_back((exe.parent_path() / ".." / "lib" / "prof" / "plugins").lexically_normal());
  if (const char *env = std::getenv("PROF_PLUGIN_PATH")) {
    std::stringstream list(env);
    for (std::string item; std::getline(list, item, ':');)
      if (!item.empty()) folders.emplace_back(item); // an empty entry is not "."
  }
  folders.insert(folders.end(), extra.begin(), extra.end());
  return folders;
}

void PluginRegistry::scan(const std::vector<fs::path> &folders, bool strict) {
  for (const fs::path &folder : folders) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
      if (strict) refuse(folder, "is not a folder");
      continue;
    }
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(folder, ec)) {
      const std::string file = entry.path().filename().string();
      if (file.rfind("libprof-", 0) == 0 && entry.path().extension() == ".so")
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    pending_.insert(pending_.end(), files.begin(), files.end());
  }
}

void PluginRegistry::load_all() const {
  while (!pending_.empty()) {
    const fs::path file = pending_.front();
    pending_.pop_front();
    load_file(file);
  }
}

bool PluginRegistry::refuse(const fs::path &file, std::string reason) const {
  refusals_.push_back({file, std::move(reason)});
  return false;
}

bool PluginRegistry::load(const fs::path &file) { return load_file(file); }

bool PluginRegistry::load_file(const fs::path &file) const {
  if (probe_loads_) {
    const auto crashed = probe_load(
        [&file] {
          PluginRegistry alone;
          alone.load(file);
        },
        std::chrono::seconds(10));
    if (crashed) return refuse(file, *crashed);
  }
  auto library = std::make_shared<boost::dll::shared_library>();
  boost::dll::fs::error_code ec;
  library->load(file, boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_local, ec);
  if (ec) {
    // Boost.DLL keeps only an errno; dlopen's own text names the real cause.
    std::string detail = ec.message();
    if (void *handle = dlopen(file.c_str(), RTLD_LAZY | RTLD_LOCAL))
      dlclose(handle);
    else if (const char *why = dlerror())
      detail = why;
    return refuse(file, "cannot be loaded: " + detail);
  }
  if (!library->has(PROF_PLUGIN_ENTRY_SYMBOL))
    return refuse(file, "entry point '" PROF_PLUGIN_ENTRY_SYMBOL "' not found");
  auto entry = library->get<const prof_plugin_descriptor *()>(PROF_PLUGIN_ENTRY_SYMBOL);
  const prof_plugin_descriptor *descriptor = entry();
  std::string problem = check_descriptor(descriptor);
  for (uint32_t i = 0; problem.empty() && i < descriptor->option_count; ++i)
    if (std::string bad = config::OptionValidator::default_problem(descriptor->options[i]);
        !bad.empty())
      problem = "plugin '" + std::string(descriptor->name) + "': " + bad;
  if (!problem.empty()) return refuse(file, problem);

  PluginInfo info;
  info.name = descriptor->name;
  info.version = descriptor->version;
  info.description = descriptor->description;
  if (descriptor->struct_size >= offsetof(prof_plugin_descriptor, vendor) + sizeof(const char *) &&
      descriptor->vendor)
    info.vendor = descriptor->vendor;
  if (descriptor->struct_size >= offsetof(prof_plugin_descriptor, flags) + sizeof(uint32_t))
    info.flags = descriptor->flags;
  info.kind = descriptor->kind;
  info.scope = descriptor->scope;
  info.abi_major = descriptor->abi_major;
  info.abi_minor = descriptor->abi_minor;
  info.path = file;
  info.options.assign(descriptor->options, descriptor->options + descriptor->option_count);
  info.source = descriptor->source;
  info.exporter = descriptor->exporter;
  info.importer = descriptor_importer(descriptor);
  info.library = std::move(library);

  if (const PluginInfo *other = loaded(info.name))
    return refuse(file,
                  "plugin name '" + info.name + "' is already taken by " + other->path.string());
  const std::string stem = file.stem().string().substr(std::string("libprof-").size());
  if (stem != info.name)
    warnings_.push_back(file.string() + ": provides plugin '" + info.name +
                        "' but its file name says '" + stem + "'");
  plugins_.push_back(std::move(info));
  return true;
}

const PluginInfo *PluginRegistry::loaded(const std::string &name) const {
  for (const auto &p : plugins_)
    if (p.name == name) return &p;
  return nullptr;
}

const PluginInfo *PluginRegistry::find(const std::string &name) const {
  if (const PluginInfo *found = loaded(name)) return found;
  // The file named after it first: the first such file in search order.
  const std::string file = "libprof-" + name + ".so";
  for (auto it = pending_.begin(); it != pending_.end(); ++it)
    if (it->filename() == file) {
      const fs::path path = *it;
      pending_.erase(it);
      load_file(path);
      if (const PluginInfo *found = loaded(name)) return found;
      break;
    }
  // A file named otherwise may provide it.
  load_all();
  return loaded(name);
}

const std::deque<PluginInfo> &PluginRegistry::plugins() const {
  load_all();
  return plugins_;
}

const std::vector<PluginRefusal> &PluginRegistry::refusals() const {
  load_all();
  return refusals_;
}

const std::vector<std::string> &PluginRegistry::warnings() const {
  load_all();
  return warnings_;
}

std::string PluginRegistry::names() const {
  load_all();
  std::string result;
  for (const auto &p : plugins_)
    result += (result.empty() ? "" : ", ") + p.name;
  return result.empty() ? "none" : result;
}

} // namespace prof::core
