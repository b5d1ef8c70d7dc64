// Finds the GCU driver: the one the application already linked, else the
// library named by the plugin's `driver` option (gcusim by default).
#pragma once

#include <prof/declared_options.hpp>
#include <prof/gcu_driver.h>
#include <prof/plugin.hpp>

#include <string>

namespace prof::gcu {

/// The driver table, or nullptr with `error` set to a one-line reason.
const prof_gcu_driver *load_gcu_driver(const std::string &library, std::string &error);

/// The driver named by the source's `driver` option and its device tree;
/// throws std::runtime_error with the reason when there is none.
const prof_gcu_driver &open_gcu_driver(const DeclaredOptions &declared,
                                       const prof_gcu_topology *&topology);

} // namespace prof::gcu
