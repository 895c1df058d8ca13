// gtp_clock_test.cpp - a GTP clock's per-move budget and limit (host/src/play/gtp_clock): the limit is a few budgets
// where the clock has room, never more than the clock holds less its safety margin and the least budget of the
// period's later moves, never less than the budget, and absent without a clock.
#include <gtest/gtest.h>

#include "play/gtp_clock.hpp"

namespace {

using gsdk::host::GtpClock;

TEST(GtpClock, ALimitIsAFewBudgetsWhereTheClockHasRoom) {
  GtpClock clock;
  ASSERT_FALSE(clock.time_settings("0", "5", "10")); // Canadian: 10 moves in 5 s
  // A tenth of 5 s less 10% and two 0.05 s margins.
  EXPECT_NEAR(*clock.move_budget(0, 30), 0.4, 1e-9);
  EXPECT_NEAR(*clock.move_limit(0, 30), 1.2, 1e-9);
  ASSERT_FALSE(clock.kgs_time_settings({"absolute", "20"}));
  EXPECT_NEAR(*clock.move_budget(1, 10), 1.75, 1e-9);
  EXPECT_NEAR(*clock.move_limit(1, 10), 5.25, 1e-9);
}

TEST(GtpClock, ALimitKeepsWhatTheClockMustStillCover) {
  GtpClock clock;
  ASSERT_FALSE(clock.time_settings("0", "5", "10"));
  ASSERT_FALSE(clock.time_left(0, "1", "2")); // 1 s left for 2 moves: 0.1 s margin, 0.01 s for the other
  EXPECT_NEAR(*clock.move_limit(0, 30), 0.89, 1e-9);
  ASSERT_FALSE(clock.time_left(0, "1", "1")); // the period's last move: the budget is nearly all of it
  EXPECT_NEAR(*clock.move_budget(0, 30), 0.85, 1e-9);
  EXPECT_NEAR(*clock.move_limit(0, 30), 0.9, 1e-9);
  ASSERT_FALSE(clock.time_left(0, "0", "2")); // nothing left: the least budget, and no limit below it
  EXPECT_EQ(*clock.move_limit(0, 30), *clock.move_budget(0, 30));
}

TEST(GtpClock, WithoutAClockThereIsNoLimit) {
  GtpClock clock;
  EXPECT_FALSE(clock.move_limit(0, 10));
  ASSERT_FALSE(clock.kgs_time_settings({"none"}));
  EXPECT_FALSE(clock.move_limit(1, 10));
}

} // namespace
