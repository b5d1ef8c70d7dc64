#include "driver_loader.hpp"

#include <prof/declared_options.hpp>

#include <dlfcn.h>

#include <cstddef>
#include <filesystem>
#include <stdexcept>

namespace prof::gcu {
namespace {

const prof_gcu_driver *checked(prof_gcu_driver_entry_fn entry, const std::string &where,
                               std::string &error) {
  const prof_gcu_driver *driver = entry ? entry() : nullptr;
  // A 1.0 driver's table ends before label_category.
  if (driver == nullptr || driver->struct_size < offsetof(prof_gcu_driver, label_category)) {
    error = "GCU driver " + where + " returned no usable driver table";
    return nullptr;
  }
  if (driver->major != PROF_GCU_DRIVER_MAJOR) {
    error = "GCU driver " + where + " speaks driver interface " + std::to_string(driver->major) +
            "." + std::to_string(driver->minor) + ", this plugin needs " +
            std::to_string(PROF_GCU_DRIVER_MAJOR) + ".x";
    return nullptr;
  }
  return driver;
}

} // namespace

const prof_gcu_driver *load_gcu_driver(const std::string &library, std::string &error) {
  // An application linked against a runtime already holds its driver: use
  // that one, so records come from the devices it drives.
  if (auto entry = reinterpret_cast<prof_gcu_driver_entry_fn>(
          dlsym(RTLD_DEFAULT, PROF_GCU_DRIVER_ENTRY_SYMBOL)))
    return checked(entry, "in the application", error);
  // The handle is kept for the life of the process: records and labels point into it.
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  const char *why = handle ? nullptr : dlerror();
  const std::string first_error = why ? why : "unknown error";
  if (handle == nullptr && library.find('/') == std::string::npos) {
    // A bare name is also looked up in the install's lib folder, two above
    // this plugin: the plugin's RUNPATH says so too, but a dlopen wrapper
    // (a sanitizer's, say) hides it.
    Dl_info self{};
    if (dladdr(reinterpret_cast<void *>(&load_gcu_driver), &self) != 0 && self.dli_fname) {
      const std::filesystem::path beside =
          std::filesystem::path(self.dli_fname).parent_path() / ".." / ".." / library;
      handle = dlopen(beside.c_str(), RTLD_NOW | RTLD_GLOBAL);
    }
  }
  if (handle == nullptr) {
    error = "cannot load GCU driver '" + library + "': " + first_error;
    return nullptr;
  }
  auto entry =
      reinterpret_cast<prof_gcu_driver_entry_fn>(dlsym(handle, PROF_GCU_DRIVER_ENTRY_SYMBOL));
  if (entry == nullptr) {
    error =
        "'" + library + "' is not a GCU driver: it does not export " + PROF_GCU_DRIVER_ENTRY_SYMBOL;
    return nullptr;
  }
  return checked(entry, "'" + library + "'", error);
}

const prof_gcu_driver &open_gcu_driver(const DeclaredOptions &declared,
                                       const prof_gcu_topology *&topology) {
  std::string error;
  const prof_gcu_driver *driver = load_gcu_driver(std::string(declared.text("driver")), error);
  if (driver == nullptr) throw std::runtime_error(error);
  topology = driver->topology();
  if (topology == nullptr || topology->struct_size < offsetof(prof_gcu_topology, activity_descs))
    throw std::runtime_error(std::string("GCU driver ") + driver->name + " has no device tree");
  return *driver;
}

} // namespace prof::gcu
