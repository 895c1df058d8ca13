// job_clock_test.cpp - the clock of an MPI job with a time bound (job_clock.hpp): the deadline is the bound after the
// clock's start, less what the runs it resumes spent; the time is up from that moment on and not before; a job without
// a bound has neither.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "distribute/job_clock.hpp"

namespace {

using gsdk::host::JobClock;
using std::chrono::milliseconds;

TEST(JobClock, TheDeadlineIsTheBoundAfterTheStart) {
  const JobClock::Clock::time_point start{std::chrono::hours(5)};
  const JobClock clock(2.5, 0, start);
  ASSERT_TRUE(clock.bounded());
  ASSERT_TRUE(clock.deadline());
  EXPECT_EQ(*clock.deadline(), start + milliseconds(2500));
  EXPECT_FALSE(clock.time_is_up(start));
  EXPECT_FALSE(clock.time_is_up(start + milliseconds(2499)));
  EXPECT_TRUE(clock.time_is_up(start + milliseconds(2500)));
  EXPECT_TRUE(clock.time_is_up(start + std::chrono::hours(1)));
}

TEST(JobClock, AResumedJobGoesOnWithTheTimeItsEarlierRunsLeft) {
  const JobClock::Clock::time_point start{std::chrono::hours(5)};
  const JobClock clock(10, 4, start);
  EXPECT_EQ(*clock.deadline(), start + std::chrono::seconds(6));
  EXPECT_DOUBLE_EQ(clock.seconds(start), 4);
  EXPECT_DOUBLE_EQ(clock.seconds(start + milliseconds(1500)), 5.5);
  EXPECT_TRUE(JobClock(10, 12, start).time_is_up(start)) << "a job resumed after its time starts out of time";
}

TEST(JobClock, AJobWithoutABoundIsNeverOutOfTime) {
  const JobClock clock(0, 3);
  EXPECT_FALSE(clock.bounded());
  EXPECT_FALSE(clock.deadline());
  EXPECT_FALSE(clock.time_is_up(JobClock::Clock::now() + std::chrono::hours(24 * 365)));
}

TEST(JobClock, ItsTimeRunsOnTheProcessClock) {
  const JobClock clock(0.05);
  EXPECT_FALSE(clock.time_is_up());
  std::this_thread::sleep_for(milliseconds(60));
  EXPECT_TRUE(clock.time_is_up());
}

} // namespace
