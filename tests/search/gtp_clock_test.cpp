// gtp_clock_test.cpp - a GTP clock's per-move budget and limit (host/src/play/gtp_clock): the limit is a few budgets
// where the clock has room, never more than the clock holds less its safety margin and the least budget of the
// period's later moves, never less than the budget, and absent without a clock; a byo-yomi period's time goes to
// the moves the agent will search, not to those it will solve or that lie past the game's end.
#include <gtest/gtest.h>

#include "play/gtp_clock.hpp"

namespace {

using gsdk::host::GtpClock;

// 30 moves left, none in the agent's exact range.
const gsdk::host::GtpMovesLeft kLongGame{30, 30};

TEST(GtpClock, ALimitIsAFewBudgetsWhereTheClockHasRoom) {
  GtpClock clock;
  ASSERT_FALSE(clock.time_settings("0", "5", "10")); // Canadian: 10 moves in 5 s
  // A tenth of 5 s less 10% and two 0.05 s margins.
  EXPECT_NEAR(*clock.move_budget(0, kLongGame), 0.4, 1e-9);
  EXPECT_NEAR(*clock.move_limit(0, kLongGame), 1.2, 1e-9);
  ASSERT_FALSE(clock.kgs_time_settings({"absolute", "20"}));
  EXPECT_NEAR(*clock.move_budget(1, {10, 10}), 1.75, 1e-9);
  EXPECT_NEAR(*clock.move_limit(1, {10, 10}), 5.25, 1e-9);
}

TEST(GtpClock, ALimitKeepsWhatTheClockMustStillCover) {
  GtpClock clock;
  ASSERT_FALSE(clock.time_settings("0", "5", "10"));
  ASSERT_FALSE(clock.time_left(0, "1", "2")); // 1 s left for 2 moves: 0.1 s margin, 0.01 s for the other
  EXPECT_NEAR(*clock.move_limit(0, kLongGame), 0.89, 1e-9);
  ASSERT_FALSE(clock.time_left(0, "1", "1")); // the period's last move: the budget is nearly all of it
  EXPECT_NEAR(*clock.move_budget(0, kLongGame), 0.85, 1e-9);
  EXPECT_NEAR(*clock.move_limit(0, kLongGame), 0.9, 1e-9);
  ASSERT_FALSE(clock.time_left(0, "0", "2")); // nothing left: the least budget, and no limit below it
  EXPECT_EQ(*clock.move_limit(0, kLongGame), *clock.move_budget(0, kLongGame));
}

TEST(GtpClock, WithoutAClockThereIsNoLimit) {
  GtpClock clock;
  EXPECT_FALSE(clock.move_limit(0, {10, 10}));
  ASSERT_FALSE(clock.kgs_time_settings({"none"}));
  EXPECT_FALSE(clock.move_limit(1, {10, 10}));
}

TEST(GtpClock, APeriodsTimeGoesToTheMovesSearched) {
  GtpClock clock;
  ASSERT_FALSE(clock.time_settings("0", "5", "10"));
  // 10 moves left, the last 7 solved: 3 + 7/10 moves' worth share 5 s.
  EXPECT_NEAR(*clock.move_budget(0, {10, 3}), 5 / 3.7 * 0.9 - 0.05, 1e-9);
  // The game ends after 4 more moves: the period's other 6 stones need no time.
  EXPECT_NEAR(*clock.move_budget(0, {4, 4}), 5 / 4.0 * 0.9 - 0.05, 1e-9);
  // In main time the same weighting: 20 s over 2 searched moves and 10 solved ones.
  ASSERT_FALSE(clock.kgs_time_settings({"absolute", "20"}));
  EXPECT_NEAR(*clock.move_budget(0, {12, 2}), 20 / 3.0 * 0.9 - 0.05, 1e-9);
}

// time_left's whole seconds: the engine's own account within the same second is kept, else the controller's word.
TEST(GtpClock, TimeLeftKeepsTheFinerAccountWithinItsSecond) {
  GtpClock clock;
  ASSERT_FALSE(clock.time_settings("0", "5", "10"));
  clock.charge(0, 0.4); // 4.6 s left for 9 stones
  ASSERT_FALSE(clock.time_left(0, "4", "9"));
  EXPECT_NEAR(*clock.move_budget(0, kLongGame), 4.6 / 9 * 0.9 - 0.05, 1e-9);
  ASSERT_FALSE(clock.time_left(0, "3", "9")); // the controller saw more time spent: its word
  EXPECT_NEAR(*clock.move_budget(0, kLongGame), 3.0 / 9 * 0.9 - 0.05, 1e-9);
  ASSERT_FALSE(clock.time_left(0, "4", "8")); // another stone count: its word
  EXPECT_NEAR(*clock.move_budget(0, kLongGame), 4.0 / 8 * 0.9 - 0.05, 1e-9);
}

} // namespace
