// iteration_clock.cpp - the time rules of alpha-beta's iterative deepening (see iteration_clock.hpp).
#include "agents/iteration_clock.hpp"

#include <algorithm>

namespace gsdk::core {

namespace {

// Growth assumed before two iterations have been timed, and the range a measured one is held to: the first
// iterations are too short to time well, and one cheap iteration (answers from the table) must not make the next
// look free.
constexpr double kDefaultGrowth = 4;
constexpr double kMinGrowth = 1.5;
constexpr double kMaxGrowth = 16;

IterationClock::Clock::duration seconds_of(double seconds) {
  return std::chrono::duration_cast<IterationClock::Clock::duration>(std::chrono::duration<double>(seconds));
}

} // namespace

IterationClock::IterationClock(double soft_seconds, double hard_seconds)
    : start_(Clock::now()), deadline_(Clock::time_point::max()), soft_(soft_seconds),
      hard_(std::max(soft_seconds, hard_seconds)) {
  if (soft_ > 0) deadline_ = start_ + seconds_of(hard_);
}

double IterationClock::elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

bool IterationClock::would_overrun(double seconds) const {
  return soft_ > 0 && Clock::now() + seconds_of(seconds) > deadline_;
}

bool IterationClock::worth_starting() const {
  if (soft_ <= 0) return true;
  const double now = elapsed();
  if (now >= soft_) return false;
  // Unused time is lost: an unfinished iteration costs nothing, and its root may still find a better move.
  if (hard_ <= soft_) return true;
  const double growth = growth_ > 0 ? std::clamp(growth_, kMinGrowth, kMaxGrowth) : kDefaultGrowth;
  return now + last_ * growth <= hard_;
}

void IterationClock::iteration_done() {
  const double now = elapsed();
  const double took = now - last_done_;
  growth_ = last_ > 0 ? took / last_ : 0;
  last_ = took;
  last_done_ = now;
}

} // namespace gsdk::core
