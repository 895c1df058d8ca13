// improvement_plot.hpp - a PNG of the best score against time (a step line), drawn by gnuplot.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace gsdk::host {

// `improvements` holds (seconds, score) in order; the line runs on flat to end_seconds. Throws
// std::runtime_error when there is nothing to plot or gnuplot is missing or fails.
void plot_improvements(const std::string& png_path, const std::string& title,
                       const std::vector<std::pair<double, long long>>& improvements, double end_seconds);

// Writes the steps and the gnuplot script (plot.gp) into `dir`, as plot_improvements draws them: whole-number score
// ticks, a score range with room above and below, a key naming the line and the points. Throws std::runtime_error
// when there is nothing to plot.
void write_improvement_plot(const std::filesystem::path& dir, const std::string& title,
                            const std::vector<std::pair<double, long long>>& improvements, double end_seconds);

} // namespace gsdk::host
