// mode=summary: the summary exporter's tables (same aggregation, same
// groups, same row order) as one CSV with integer nanoseconds.
#ifndef PROF_PLUGINS_CSV_CSV_SUMMARY_HPP
#define PROF_PLUGINS_CSV_CSV_SUMMARY_HPP

#include "csv_file.hpp"
#include <prof/stats/summary_aggregator.hpp>

#include <prof/plugin.hpp>

#include <string>

namespace prof::csv {

/// Writes the activity table (header "Type,Time(%),Time(ns),Calls,Avg(ns),
/// Min(ns),Max(ns),Name") and, when there are counters, a blank line and the
/// counter table ("Counter,Unit,Min,Avg,Max"). Returns the rows written.
uint64_t write_summary(const ExportHost &host, const stats::SummaryAggregator &aggregator,
                       CsvFile &out);

} // namespace prof::csv

#endif
