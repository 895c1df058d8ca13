// histogram_plot.hpp - a PNG of a score histogram against the exact distribution, drawn by gnuplot.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gsdk::host {

// Throws std::runtime_error when gnuplot is missing or fails. `exact` may be empty.
void plot_histogram(const std::string& png_path, const std::string& title, int64_t score_min,
                    const std::vector<uint64_t>& histogram, const std::vector<double>& exact);

// Writes the histogram's data and gnuplot script (plot.gp) into `dir`, as plot_histogram draws them: every bar whole
// inside the x range, whole-number score ticks, a key naming the observed bars and the exact line. Throws
// std::runtime_error when the histogram is empty.
void write_histogram_plot(const std::filesystem::path& dir, const std::string& title, int64_t score_min,
                          const std::vector<uint64_t>& histogram, const std::vector<double>& exact);

} // namespace gsdk::host
