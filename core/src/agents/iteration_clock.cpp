// iteration_clock.cpp - the time rules of alpha-beta's iterative deepening (see iteration_clock.hpp).
#include "agents/iteration_clock.hpp"

namespace gsdk::core {

namespace {

IterationClock::Clock::duration seconds_of(double seconds) {
  return std::chrono::duration_cast<IterationClock::Clock::duration>(std::chrono::duration<double>(seconds));
}

} // namespace

IterationClock::IterationClock(double seconds)
    : deadline_(seconds > 0 ? Clock::now() + seconds_of(seconds) : Clock::time_point::max()) {}

bool IterationClock::would_overrun(double seconds) const {
  return deadline_ != Clock::time_point::max() && Clock::now() + seconds_of(seconds) > deadline_;
}

} // namespace gsdk::core
