// job_clock.hpp - the one clock of an MPI job whose run has a time bound (an NMCS or NRPA search's time_seconds):
// the bound is the job's, not each chunk's. Every rank starts its clock as the ranks leave a collective call
// together (ranked_run.cpp: the verdict broadcast), so that its deadline, the bound after that on its own steady
// clock, is the job's deadline: the ranks' clocks need not agree, only start together (they differ by how far apart
// the ranks left the call, well under a chunk's time). Rank 0 hands out no chunk past its deadline; a chunk
// under way at a rank's deadline ends there (RunOptions::deadline), one handed out after it starts no work.
#pragma once

#include <chrono>
#include <optional>

namespace gsdk::host {

class JobClock {
public:
  using Clock = std::chrono::steady_clock;

  // `bound_seconds`: the job's time (0: none, the job is bounded by counts), from `start`.
  explicit JobClock(double bound_seconds, Clock::time_point start = Clock::now());

  bool bounded() const { return deadline_.has_value(); }
  // When the job's time is up on this process's clock; null without a bound.
  std::optional<Clock::time_point> deadline() const { return deadline_; }
  // False without a bound.
  bool time_is_up(Clock::time_point now = Clock::now()) const { return deadline_ && now >= *deadline_; }

private:
  std::optional<Clock::time_point> deadline_;
};

} // namespace gsdk::host
