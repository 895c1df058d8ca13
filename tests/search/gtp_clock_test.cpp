// gtp_clock_test.cpp - a GTP clock's reading of time_left (host/src/play/gtp_clock): GTP's whole seconds round the
// controller's clock down, so the engine's own account of the same clock within that second is kept, and the
// controller's word is taken when it differs by more or counts other stones.
#include <gtest/gtest.h>

#include "play/gtp_clock.hpp"

namespace {

TEST(GtpClock, TimeLeftKeepsTheFinerAccountWithinItsSecond) {
  gsdk::host::GtpClock clock;
  ASSERT_FALSE(clock.time_settings("0", "5", "10")); // Canadian: 10 moves in 5 s
  clock.charge(0, 0.4);                              // 4.6 s left for 9 stones
  ASSERT_FALSE(clock.time_left(0, "4", "9"));
  // The share, less 10% and a 0.05 s margin.
  EXPECT_NEAR(*clock.move_budget(0, 30), 4.6 / 9 * 0.9 - 0.05, 1e-9);
  ASSERT_FALSE(clock.time_left(0, "3", "9")); // the controller saw more time spent: its word
  EXPECT_NEAR(*clock.move_budget(0, 30), 3.0 / 9 * 0.9 - 0.05, 1e-9);
  ASSERT_FALSE(clock.time_left(0, "4", "8")); // another stone count: its word
  EXPECT_NEAR(*clock.move_budget(0, 30), 4.0 / 8 * 0.9 - 0.05, 1e-9);
  ASSERT_FALSE(clock.kgs_time_settings({"absolute", "20"}));
  clock.charge(1, 2.5); // 17.5 s left
  ASSERT_FALSE(clock.time_left(1, "17", "0"));
  EXPECT_NEAR(*clock.move_budget(1, 10), 17.5 / 10 * 0.9 - 0.05, 1e-9);
}

} // namespace
