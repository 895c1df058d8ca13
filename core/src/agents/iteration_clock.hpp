// iteration_clock.hpp - when alpha-beta's iterative deepening stops: the move's deadline, checked inside the search,
// whether a next iteration is begun, and whether an uninterruptible piece of work (a solve through the game's
// playout table) may still begin without passing the deadline.
//
// A move's time unused is lost (a clock shares it out again only in byo-yomi's period), so an iteration is begun
// whenever time is left: an unfinished one may still prove a better root move. A soft budget with a hard limit
// beyond it, the next iteration predicted from the last one's growth and not begun when it could not finish,
// played 1-5, 4-11-1 and 6-9-1 against this rule through GTP's byo-yomi (docs/perf/othello.md), so it is not used.
#pragma once

#include <chrono>

namespace gsdk::core {

class IterationClock {
public:
  using Clock = std::chrono::steady_clock;

  // `seconds` 0: no time bound (a depth-bounded search).
  explicit IterationClock(double seconds);

  Clock::time_point deadline() const { return deadline_; }
  // Whether `seconds` of work begun now would end past the deadline.
  bool would_overrun(double seconds) const;
  // Before each iteration after the first: whether to begin it.
  bool worth_starting() const { return Clock::now() < deadline_; }

private:
  Clock::time_point deadline_;
};

} // namespace gsdk::core
