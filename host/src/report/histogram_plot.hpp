// histogram_plot.hpp - a PNG of a score histogram against the exact distribution, drawn by gnuplot.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gsdk::host {

// Throws std::runtime_error when gnuplot is missing or fails. `exact` may be empty.
void plot_histogram(const std::string& png_path, const std::string& title, int64_t score_min,
                    const std::vector<uint64_t>& histogram, const std::vector<double>& exact);

} // namespace gsdk::host
