// job_clock.cpp - the job's deadline from its bound (job_clock.hpp).
#include "distribute/job_clock.hpp"

namespace gsdk::host {

JobClock::JobClock(double bound_seconds, Clock::time_point start) {
  if (bound_seconds <= 0) return;
  deadline_ = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(bound_seconds));
}

} // namespace gsdk::host
