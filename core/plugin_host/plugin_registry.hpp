// Finds plugin shared objects, reads their descriptors without creating an
// instance, and keeps the good ones loaded. A bad file is refused with a
// one-line reason and never stops the others from loading. Files are loaded
// when first needed: a capture loads the plugins it uses, a listing all.
#pragma once

#include <prof/plugin.h>

#include <deque>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace boost::dll {
class shared_library;
}

namespace prof::core {

/// A loaded plugin: its descriptor's facts and the library that keeps the
/// descriptor's memory alive.
struct PluginInfo {
  std::string name;
  std::string version;
  std::string description;
  std::string vendor; ///< empty for plugins older than ABI 1.1
  uint32_t flags = 0; ///< PROF_PLUGIN_* (0 for plugins older than ABI 1.4)
  prof_plugin_kind kind{};
  prof_plugin_scope scope{};
  unsigned abi_major = 0;
  unsigned abi_minor = 0;
  std::filesystem::path path;
  std::vector<prof_option_desc> options;
  const prof_source_vtable *source = nullptr;
  const prof_exporter_vtable *exporter = nullptr;
  /// Set for an importer, and for an exporter that reads its format too.
  const prof_importer_vtable *importer = nullptr;
  std::shared_ptr<boost::dll::shared_library> library;

  /// The option named `key`, nullptr if the plugin has none.
  const prof_option_desc *option(const std::string &key) const;
};

/// A file that was not loaded, and why.
struct PluginRefusal {
  std::filesystem::path path;
  std::string reason;
  /// "PATH: REASON"
  std::string message() const { return path.string() + ": " + reason; }
};

const char *kind_name(prof_plugin_kind kind);
/// What the plugin does: its kind, "exporter,importer" for one that reads
/// its format too.
std::string kinds_of(const PluginInfo &plugin);
const char *scope_name(prof_plugin_scope scope);

class PluginRegistry {
public:
  PluginRegistry();
  ~PluginRegistry();
  PluginRegistry(const PluginRegistry &) = delete;
  PluginRegistry &operator=(const PluginRegistry &) = delete;
  PluginRegistry(PluginRegistry &&) noexcept;
  PluginRegistry &operator=(PluginRegistry &&) noexcept;

  /// The search path: the install's plugin folder (relative to the running
  /// executable: ../lib/prof/plugins), then each folder of PROF_PLUGIN_PATH,
  /// then `extra` (--plugin-path). Never the current directory implicitly.
  static std::vector<std::filesystem::path>
  search_path(const std::vector<std::filesystem::path> &extra);

  /// Finds every libprof-*.so in each folder, folders in order, files in
  /// name order, to be loaded when needed: find() loads the file named
  /// after the plugin (libprof-NAME.so) and only when that does not give it
  /// every other file; plugins(), refusals(), warnings() and names() load
  /// them all. A missing folder is skipped silently unless `strict`.
  /// Loading happens in const calls: use a registry from one thread.
  void scan(const std::vector<std::filesystem::path> &folders, bool strict = false);
  /// Loads one file; returns false (and records a refusal) when refused.
  bool load(const std::filesystem::path &file);
  /// Loads each file in a child process first (core/plugin_host/plugin_load_probe.hpp),
  /// so that one that crashes or hangs while loading is refused with that
  /// reason instead of ending prof: for listings, where a fork per plugin
  /// costs nothing that matters.
  void probe_loads_first(bool on) { probe_loads_ = on; }

  /// The plugin called `name`, loading what it takes to find it; nullptr
  /// when no file provides it. The pointer stays valid while the registry lives.
  const PluginInfo *find(const std::string &name) const;
  /// Every plugin, each file of the scan loaded.
  const std::deque<PluginInfo> &plugins() const;
  const std::vector<PluginRefusal> &refusals() const;
  /// Loaded with a remark (file name and descriptor name disagree).
  const std::vector<std::string> &warnings() const;
  /// Names of the plugins, comma-separated (for error messages).
  std::string names() const;

private:
  bool refuse(const std::filesystem::path &file, std::string reason) const;
  bool load_file(const std::filesystem::path &file) const;
  const PluginInfo *loaded(const std::string &name) const;
  /// Loads the files found by scan() and not loaded yet.
  void load_all() const;

  // Filled as files load, from const calls too; a deque, so that a
  // PluginInfo never moves once find() has handed it out.
  mutable std::deque<PluginInfo> plugins_;
  mutable std::vector<PluginRefusal> refusals_;
  mutable std::vector<std::string> warnings_;
  mutable std::deque<std::filesystem::path> pending_; // scanned, not loaded yet
  bool probe_loads_ = false;
};

} // namespace prof::core
