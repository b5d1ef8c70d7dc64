// The standalone actions the gcu and sip-pmc sources answer through the
// query call: print the device tree, write it as JSON.
#pragma once

#include <prof/activity/selection.hpp>
#include <prof/declared_options.hpp>

#include <prof/gcu_driver.h>
#include <prof/plugin.hpp>

#include <string>

namespace prof::gcu {

/// Answers the tree queries of `kind`: "activities" (or "events") prints the
/// tree, "export-activities" (or "export-events") writes it to the file in
/// the option of that name. False for other queries, or after logging why
/// the export failed.
bool answer_tree_query(const Host &host, const DeclaredOptions &declared,
                       const prof_gcu_topology &topology, activity::ItemKind kind,
                       std::string_view what, QueryPrinter print, void *ctx);

/// Prints the tree of `kind` in topsprof's --query-activities layout.
void print_tree(const prof_gcu_topology &topology, activity::ItemKind kind, QueryPrinter print,
                void *ctx);
/// Prints only the API trace domains (--query-trace).
void print_api_domains(const prof_gcu_topology &topology, QueryPrinter print, void *ctx);
/// Writes the tree of `kind` as JSON to `path` (through a temporary file,
/// renamed when complete). False with `error` set when it cannot.
bool write_tree_file(const prof_gcu_topology &topology, activity::ItemKind kind,
                     const std::string &path, bool overwrite, std::string &error);

} // namespace prof::gcu
