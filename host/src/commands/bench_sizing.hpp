// bench_sizing.hpp - how many playouts a timed `gsdk bench` run gets when the user names no count: as many as
// this device runs in a time target, measured rather than fixed, so the default suite takes about the same
// time on a laptop as on a GPU (where a fixed count small enough for the laptop would measure nothing).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

namespace gsdk::host {

// Runs `count` playouts and returns their wall seconds, or nothing when the run was stopped.
using TimedPlayouts = std::function<std::optional<double>(uint64_t count)>;

// Playouts that take about `target_seconds` here: runs growing counts (from a small one) until one lasts a
// measurable fraction of a second, then scales its rate to the target, rounded to two significant digits.
// Nothing when a run was stopped.
std::optional<uint64_t> playouts_for_seconds(const TimedPlayouts& run, double target_seconds);

} // namespace gsdk::host
