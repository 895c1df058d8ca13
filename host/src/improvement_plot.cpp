// improvement_plot.cpp - writes the steps and a gnuplot script to a temporary folder and runs gnuplot.
#include "improvement_plot.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::host {

void plot_improvements(const std::string& png_path, const std::string& title,
                       const std::vector<std::pair<double, long long>>& improvements, double end_seconds) {
  namespace fs = std::filesystem;
  if (improvements.empty()) throw std::runtime_error("nothing to plot: the run found no sequence");
  const fs::path dir = fs::temp_directory_path() / fmt::format("gsdk-improvements-{}", ::getpid());
  fs::create_directories(dir);
  // Most improvements come in the first milliseconds and the rest over minutes: time on a log scale,
  // from a millisecond.
  const auto at = [](double seconds) { return std::max(seconds, 1e-3); };
  {
    std::ofstream points(dir / "points.txt");
    for (const auto& [seconds, score] : improvements) points << at(seconds) << ' ' << score << '\n';
    std::ofstream line(dir / "line.txt");
    for (const auto& [seconds, score] : improvements) line << at(seconds) << ' ' << score << '\n';
    line << at(std::max(end_seconds, improvements.back().first)) << ' ' << improvements.back().second << '\n';
  }
  if (const fs::path parent = fs::path(png_path).parent_path(); !parent.empty()) fs::create_directories(parent);
  {
    std::ofstream script(dir / "plot.gp");
    script << "set terminal pngcairo noenhanced size 1000,600\n"
           << "set output '" << fs::absolute(png_path).string() << "'\n"
           << "set title '" << title << "'\n"
           << "set xlabel 'seconds (log scale)'\nset ylabel 'best score'\nset logscale x\nset grid\n"
           << "set key bottom right\n"
           << "plot '" << (dir / "line.txt").string() << "' using 1:2 with steps lw 2 title 'best so far', '"
           << (dir / "points.txt").string() << "' using 1:2 with points pt 7 title 'improvements'\n";
  }
  const std::string command = fmt::format("gnuplot '{}' 2>'{}'", (dir / "plot.gp").string(), (dir / "err.txt").string());
  const int status = std::system(command.c_str());
  std::ifstream err(dir / "err.txt");
  const std::string err_text((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
  fs::remove_all(dir);
  if (status != 0)
    throw std::runtime_error(fmt::format("gnuplot failed (exit status {}){}{} - is gnuplot installed?", status,
                                         err_text.empty() ? "" : ": ", err_text));
}

} // namespace gsdk::host
