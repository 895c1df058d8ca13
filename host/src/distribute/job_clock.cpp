// job_clock.cpp - the job's start and deadline from its bound and the time it resumes (job_clock.hpp).
#include "distribute/job_clock.hpp"

namespace gsdk::host {

namespace {

JobClock::Clock::duration as_duration(double seconds) {
  return std::chrono::duration_cast<JobClock::Clock::duration>(std::chrono::duration<double>(seconds));
}

} // namespace

JobClock::JobClock(double bound_seconds, double spent_seconds, Clock::time_point start)
    : start_(start - as_duration(spent_seconds)) {
  if (bound_seconds > 0) deadline_ = start_ + as_duration(bound_seconds);
}

} // namespace gsdk::host
