// What one sampling tick costs, and the highest rate the machine sustains:
// the `frequency` option is capped so sampling stays under a CPU budget.
#ifndef PROF_PLUGINS_NIC_TICK_COST_HPP
#define PROF_PLUGINS_NIC_TICK_COST_HPP

#include <chrono>
#include <cstdint>
#include <functional>

namespace prof::nic {

/// Share of one core the sampling thread may use.
inline constexpr double kCpuBudget = 0.15;

/// CPU time of the calling thread, in seconds.
double thread_cpu_seconds();

/// CPU seconds one tick costs the calling thread: `tick` followed by a
/// sleep of `gap`, so that the timer and wake-up are counted too; the mean
/// over `ticks` ticks, as loaded as the machine is now.
double measure_tick_cpu_seconds(const std::function<void()> &tick, int ticks = 48,
                                std::chrono::nanoseconds gap = std::chrono::microseconds(100));

/// Highest frequency (Hz, at least 1) at which ticks costing
/// `tick_cpu_seconds` use at most `budget` of one core.
int64_t sustainable_frequency(double tick_cpu_seconds, double budget = kCpuBudget);

} // namespace prof::nic

#endif
