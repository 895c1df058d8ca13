// bench_sizing.cpp - the measured playout count of bench_sizing.hpp.
#include "commands/bench_sizing.hpp"

#include <algorithm>
#include <cmath>

namespace gsdk::host {

namespace {

constexpr uint64_t kFirstCount = 1000;
// A run this long measures the rate to a few percent: thread start-up and launch latencies are small beside it.
constexpr double kMeasuredSeconds = 0.2;
constexpr double kMostGrowth = 100;

uint64_t two_significant_digits(double value) {
  if (value < 100) return static_cast<uint64_t>(std::max(1.0, std::round(value)));
  const double unit = std::pow(10.0, std::floor(std::log10(value)) - 1);
  return static_cast<uint64_t>(std::round(value / unit) * unit);
}

} // namespace

std::optional<uint64_t> playouts_for_seconds(const TimedPlayouts& run, double target_seconds) {
  uint64_t count = kFirstCount;
  for (;;) {
    const std::optional<double> seconds = run(count);
    if (!seconds) return std::nullopt;
    if (*seconds >= kMeasuredSeconds)
      return two_significant_digits(static_cast<double>(count) / *seconds * target_seconds);
    // Aim past kMeasuredSeconds so one more run usually suffices, growing at most kMostGrowth-fold at a time:
    // a first run's time is mostly start-up, which would overstate the growth.
    const double growth = *seconds > 0 ? std::min(kMostGrowth, 1.5 * kMeasuredSeconds / *seconds) : kMostGrowth;
    count = static_cast<uint64_t>(std::ceil(static_cast<double>(count) * std::max(2.0, growth)));
  }
}

} // namespace gsdk::host
