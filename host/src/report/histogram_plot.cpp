// histogram_plot.cpp - writes data and a gnuplot script to a temporary folder and runs gnuplot on it.
#include "report/histogram_plot.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "report/gnuplot.hpp"

namespace gsdk::host {

void plot_histogram(const std::string& png_path, const std::string& title, int64_t score_min,
                    const std::vector<uint64_t>& histogram, const std::vector<double>& exact) {
  namespace fs = std::filesystem;
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
  const fs::path dir = plot_folder("gsdk-plot");
  {
    std::ofstream data(dir / "data.txt");
    const size_t lo = first > 3 ? first - 3 : 0, hi = std::min(histogram.size() - 1, last + 3);
    for (size_t k = lo; k <= hi; ++k)
      data << score_min + static_cast<int64_t>(k) << ' ' << static_cast<double>(histogram[k]) / total << ' '
           << (exact.empty() ? 0.0 : exact[k]) << '\n';
  }
  {
    std::ofstream script = open_plot_script(dir, title, "pngcairo size 1000,600");
    script << "set xlabel 'score'\nset ylabel 'fraction of playouts'\nset logscale y\nset grid\n"
           << "set style fill solid 0.5\n"
           << "plot " << gnuplot_quoted((dir / "data.txt").string()) << " using 1:2 with boxes title 'observed'"
           << (exact.empty() ? "" : ", '' using 1:3 with linespoints lw 2 title 'exact'") << "\n";
  }
  run_gnuplot(dir, png_path);
}

} // namespace gsdk::host
