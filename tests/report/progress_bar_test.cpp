// progress_bar_test.cpp - a progress line names what it counts: "250 playouts/s", not "250/s" beside a report whose
// rate counts something else (perft's progress counts subtrees, its report nodes).
#include <string>

#include <gtest/gtest.h>

#include "report/progress_bar.hpp"

namespace {

using gsdk::host::progress_line;

TEST(ProgressLine, NamesTheUnitOfTheCountsAndTheRate) {
  EXPECT_EQ(progress_line("exp", "playouts", 250, 1000, 2.0),
            "exp: 25.0% (250 of 1000 playouts), 125 playouts/s, ETA 6.0s");
  EXPECT_EQ(progress_line("chess start", "subtrees", 109, 218, 1.0),
            "chess start: 50.0% (109 of 218 subtrees), 109 subtrees/s, ETA 1.0s");
}

TEST(ProgressLine, NoRateYetGivesNoEta) {
  EXPECT_EQ(progress_line("m", "games", 0, 10, 0.0), "m: 0.0% (0 of 10 games), 0 games/s, ETA 0.0s");
}

} // namespace
