// Finds the GCU driver: the one the application already linked, else the
// library named by the plugin's `driver` option (gcusim by default).
#pragma once

#include <prof/gcu_driver.h>

#include <string>

namespace prof::gcu {

/// The driver table, or nullptr with `error` set to a one-line reason.
const prof_gcu_driver *load_gcu_driver(const std::string &library, std::string &error);

} // namespace prof::gcu
