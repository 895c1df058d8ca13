// job_clock.hpp - the one clock of an MPI job whose run has a time bound (an NMCS or NRPA search's time_seconds):
// the bound is the job's, not each chunk's. Every rank starts its clock as the ranks leave a collective call
// together (ranked_run.cpp: the broadcast before the work), so that its deadline, the bound after that on its own
// steady clock, is the job's deadline: the ranks' clocks need not agree, only start together (they differ by how far
// apart the ranks left the call, a message's latency). Rank 0 hands out no chunk past its deadline; a chunk under
// way at a rank's deadline ends there (RunOptions::deadline), one handed out after it starts no work. A job resumed
// from its checkpoint goes on with the time its earlier runs left, as one process's resumed run does.
#pragma once

#include <chrono>
#include <optional>

namespace gsdk::host {

class JobClock {
public:
  using Clock = std::chrono::steady_clock;

  // `bound_seconds`: the job's time (0: none, the job is bounded by counts), of which the runs it resumes spent
  // `spent_seconds` before `start`.
  explicit JobClock(double bound_seconds, double spent_seconds = 0, Clock::time_point start = Clock::now());

  bool bounded() const { return deadline_.has_value(); }
  // When the job's time is up on this process's clock; null without a bound.
  std::optional<Clock::time_point> deadline() const { return deadline_; }
  // False without a bound.
  bool time_is_up(Clock::time_point now = Clock::now()) const { return deadline_ && now >= *deadline_; }
  // The job's time so far, the runs it resumes included: what its checkpoint saves.
  double seconds(Clock::time_point now = Clock::now()) const {
    return std::chrono::duration<double>(now - start_).count();
  }

private:
  Clock::time_point start_; // the spent seconds before the start
  std::optional<Clock::time_point> deadline_;
};

} // namespace gsdk::host
