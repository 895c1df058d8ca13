// improvement_plot.cpp - writes the steps and a gnuplot script to a temporary folder and runs gnuplot on it.
#include "report/improvement_plot.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "report/gnuplot.hpp"

namespace gsdk::host {

void write_improvement_plot(const std::filesystem::path& dir, const std::string& title,
                            const std::vector<std::pair<double, long long>>& improvements, double end_seconds) {
  if (improvements.empty()) throw std::runtime_error("nothing to plot: the run found no sequence");
  // Most improvements come in the first milliseconds and the rest over minutes: time on a log scale,
  // from a millisecond.
  const auto at = [](double seconds) { return std::max(seconds, 1e-3); };
  long long lowest = improvements.front().second, highest = lowest;
  {
    std::ofstream points(dir / "points.txt");
    for (const auto& [seconds, score] : improvements) points << at(seconds) << ' ' << score << '\n';
    std::ofstream line(dir / "line.txt");
    for (const auto& [seconds, score] : improvements) {
      line << at(seconds) << ' ' << score << '\n';
      lowest = std::min(lowest, score);
      highest = std::max(highest, score);
    }
    line << at(std::max(end_seconds, improvements.back().first)) << ' ' << improvements.back().second << '\n';
  }
  // Scores are whole numbers: whole-number ticks, and a step of room above and below, so that a run whose first
  // sequence stayed the best still has a score range (gnuplot's own would be empty).
  const long long step = integer_tic_step(lowest, highest);
  std::ofstream script = open_plot_script(dir, title, "pngcairo noenhanced size 1000,600");
  script << "set xlabel 'seconds (log scale)'\nset ylabel 'best score'\nset logscale x\nset grid\n"
         << "set yrange [" << lowest - step << ":" << highest + step << "]\nset ytics " << step << "\n"
         << "set key bottom right\n"
         << "plot " << gnuplot_quoted((dir / "line.txt").string()) << " using 1:2 with steps lw 2 title 'best so far', "
         << gnuplot_quoted((dir / "points.txt").string()) << " using 1:2 with points pt 7 title 'improvements'\n";
}

void plot_improvements(const std::string& png_path, const std::string& title,
                       const std::vector<std::pair<double, long long>>& improvements, double end_seconds) {
  const std::filesystem::path dir = plot_folder("gsdk-improvements");
  try {
    write_improvement_plot(dir, title, improvements, end_seconds);
  } catch (...) {
    std::filesystem::remove_all(dir);
    throw;
  }
  run_gnuplot(dir, png_path);
}

} // namespace gsdk::host
