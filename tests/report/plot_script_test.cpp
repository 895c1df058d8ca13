// plot_script_test.cpp - the pictures say what they show and show all of it: a title, axis labels, a key, whole-number
// ticks on whole-number axes, and every bar of a histogram whole, even with only two scores (gnuplot's own x range
// ends at the outer bars' centres and its own ticks over a short range fall on halves).
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "report/gnuplot.hpp"
#include "report/histogram_plot.hpp"
#include "report/improvement_plot.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::host::integer_tic_step;
using gsdk::test::read_file;
using gsdk::test::TempDir;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PlotScripts, TicksOfWholeNumberAxesAreWholeNumbers) {
  EXPECT_EQ(integer_tic_step(0, 1), 1);
  EXPECT_EQ(integer_tic_step(5, 9), 1);
  EXPECT_EQ(integer_tic_step(7, 7), 1);
  EXPECT_EQ(integer_tic_step(0, 25), 5);
  EXPECT_EQ(integer_tic_step(-3, 30), 5);
  EXPECT_EQ(integer_tic_step(0, 100), 10);
  EXPECT_EQ(integer_tic_step(0, 150), 20);
}

TEST(PlotScripts, TwoOutcomeHistogramShowsBothBarsWhole) {
  const TempDir dir;
  gsdk::host::write_histogram_plot(dir.path(), "coin", 0, {5, 7}, {0.5, 0.5});
  const std::string script = read_file(dir / "plot.gp");
  EXPECT_TRUE(has(script, "set title 'coin'")) << script;
  EXPECT_TRUE(has(script, "set xlabel 'score'")) << script;
  EXPECT_TRUE(has(script, "set ylabel 'fraction of playouts (log scale)'")) << script;
  // Scores 0 and 1, bars 0.8 wide: the range reaches half a score beyond each.
  EXPECT_TRUE(has(script, "set xrange [-0.5:1.5]")) << script;
  EXPECT_TRUE(has(script, "set boxwidth 0.8\n")) << script;
  EXPECT_TRUE(has(script, "set xtics 1\n")) << script;
  EXPECT_TRUE(has(script, "set yrange [0.1:1]")) << "a power of ten below the smaller bar (5/12)\n" << script;
  EXPECT_TRUE(has(script, "title 'observed'")) << script;
  EXPECT_TRUE(has(script, "title 'exact'")) << script;
  EXPECT_FALSE(has(script, "notitle")) << script;
  EXPECT_FALSE(has(script, "unset key")) << script;
}

TEST(PlotScripts, WideHistogramTicksStayWholeNumbers) {
  const TempDir dir;
  std::vector<uint64_t> histogram(200, 0);
  histogram[20] = 1;
  histogram[150] = 3;
  gsdk::host::write_histogram_plot(dir.path(), "wide", -10, histogram, {});
  const std::string script = read_file(dir / "plot.gp");
  EXPECT_TRUE(has(script, "set xrange [6.5:143.5]")) << script; // scores 10 and 140, three more on each side
  EXPECT_TRUE(has(script, "set xtics 20\n")) << script;
  EXPECT_FALSE(has(script, "title 'exact'")) << "no exact line without an exact distribution\n" << script;
}

TEST(PlotScripts, ImprovementPlotHasWholeScoreTicksAndARangeForOneScore) {
  const TempDir dir;
  gsdk::host::write_improvement_plot(dir.path(), "snake", {{0.5, 42}}, 3.0);
  const std::string script = read_file(dir / "plot.gp");
  EXPECT_TRUE(has(script, "set title 'snake'")) << script;
  EXPECT_TRUE(has(script, "set xlabel 'seconds (log scale)'")) << script;
  EXPECT_TRUE(has(script, "set ylabel 'best score'")) << script;
  EXPECT_TRUE(has(script, "set yrange [41:43]\nset ytics 1\n")) << script;
  EXPECT_TRUE(has(script, "title 'best so far'")) << script;
  EXPECT_TRUE(has(script, "title 'improvements'")) << script;

  const TempDir wide;
  gsdk::host::write_improvement_plot(wide.path(), "snake", {{0.001, 3}, {0.2, 40}, {9.0, 57}}, 10.0);
  EXPECT_TRUE(has(read_file(wide / "plot.gp"), "set yrange [-2:62]\nset ytics 5\n")) << read_file(wide / "plot.gp");
}

// gnuplot takes the two-outcome script without a warning (an empty or inverted range would draw one).
TEST(PlotScripts, GnuplotDrawsTheTwoOutcomeHistogram) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  const TempDir dir;
  const std::string png = (dir / "coin.png").string();
  EXPECT_NO_THROW(gsdk::host::plot_histogram(png, "coin", 0, {5, 7}, {0.5, 0.5}));
  EXPECT_EQ(read_file(png).substr(1, 3), "PNG");
}

} // namespace
