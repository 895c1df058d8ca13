// histogram_plot.cpp - writes data and a gnuplot script to a temporary folder and runs gnuplot on it.
#include "report/histogram_plot.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "report/gnuplot.hpp"

namespace gsdk::host {

namespace {

// Bars are this wide, in scores: a gap shows where one score ends and the next begins.
constexpr double kBarWidth = 0.8;
// Empty scores shown on each side of the observed ones.
constexpr size_t kMarginScores = 3;

} // namespace

void write_histogram_plot(const std::filesystem::path& dir, const std::string& title, int64_t score_min,
                          const std::vector<uint64_t>& histogram, const std::vector<double>& exact) {
  uint64_t total = 0;
  size_t first = histogram.size(), last = 0;
  for (size_t k = 0; k < histogram.size(); ++k) {
    total += histogram[k];
    if (histogram[k] != 0) {
      first = std::min(first, k);
      last = k;
    }
  }
  if (total == 0) throw std::runtime_error("nothing to plot: the histogram is empty");
  const size_t lo = first > kMarginScores ? first - kMarginScores : 0;
  const size_t hi = std::min(histogram.size() - 1, last + kMarginScores);
  // The y axis is logarithmic: its range runs from a power of ten below half the smallest fraction drawn to 1, so
  // that the smallest bar still shows, the axis has at least two labelled ticks, and one score holding every playout
  // does not leave gnuplot an empty range.
  double smallest = 1;
  {
    std::ofstream data(dir / "data.txt");
    for (size_t k = lo; k <= hi; ++k) {
      const double observed = static_cast<double>(histogram[k]) / static_cast<double>(total);
      const double expected = exact.empty() ? 0.0 : exact[k];
      for (const double fraction : {observed, expected})
        if (fraction > 0) smallest = std::min(smallest, fraction);
      data << score_min + static_cast<int64_t>(k) << ' ' << observed << ' ' << expected << '\n';
    }
  }
  const int64_t lowest = score_min + static_cast<int64_t>(lo), highest = score_min + static_cast<int64_t>(hi);
  std::ofstream script = open_plot_script(dir, title, "pngcairo size 1000,600");
  // Half a score of room on each side of the outer scores, so that their bars are whole however few scores there
  // are (gnuplot's own range would end at the outer bars' centres, cutting them in half).
  script << "set xlabel 'score'\nset ylabel 'fraction of playouts (log scale)'\nset logscale y\nset grid\n"
         << "set xrange [" << static_cast<double>(lowest) - 0.5 << ":" << static_cast<double>(highest) + 0.5 << "]\n"
         << "set yrange [" << std::pow(10.0, std::floor(std::log10(smallest / 2))) << ":1]\n"
         << "set xtics " << integer_tic_step(lowest, highest) << "\n"
         << "set boxwidth " << kBarWidth << "\nset style fill solid 0.5\nset key top right\n"
         << "plot " << gnuplot_quoted((dir / "data.txt").string()) << " using 1:2 with boxes title 'observed'"
         << (exact.empty() ? "" : ", '' using 1:3 with linespoints lw 2 title 'exact'") << "\n";
}

void plot_histogram(const std::string& png_path, const std::string& title, int64_t score_min,
                    const std::vector<uint64_t>& histogram, const std::vector<double>& exact) {
  const std::filesystem::path dir = plot_folder("gsdk-plot");
  try {
    write_histogram_plot(dir, title, score_min, histogram, exact);
  } catch (...) {
    std::filesystem::remove_all(dir);
    throw;
  }
  run_gnuplot(dir, png_path);
}

} // namespace gsdk::host
