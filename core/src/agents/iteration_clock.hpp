// iteration_clock.hpp - when alpha-beta's iterative deepening stops. A move has a soft budget (the time it should
// take) and a hard limit (the time it must not pass; the budget itself unless a game clock grants more). The search
// is cut off at the hard limit. A new iteration starts only within the soft budget, and, when the time a move leaves
// unused carries over to later moves (a hard limit beyond the budget says so), only when it is predicted to finish
// before the hard limit: each iteration is predicted to take the last one's time times the last growth factor
// (the effective branching factor), so time is not spent on an iteration whose result would be thrown away.
#pragma once

#include <chrono>

namespace gsdk::core {

class IterationClock {
public:
  using Clock = std::chrono::steady_clock;

  // `soft_seconds` 0: no time bound (a depth-bounded search). `hard_seconds` below `soft_seconds` counts as equal.
  IterationClock(double soft_seconds, double hard_seconds);

  Clock::time_point deadline() const { return deadline_; }
  // Whether `seconds` of work started now would end past the hard limit.
  bool would_overrun(double seconds) const;
  // Before each iteration after the first: whether to start it.
  bool worth_starting() const;
  // After each completed iteration.
  void iteration_done();

private:
  double elapsed() const;

  Clock::time_point start_, deadline_;
  double soft_ = 0, hard_ = 0;
  double last_ = 0, growth_ = 0; // the last iteration's seconds and its ratio to the one before (0: unknown)
  double last_done_ = 0;          // elapsed seconds when the last iteration ended
};

} // namespace gsdk::core
