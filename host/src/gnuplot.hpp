// gnuplot.hpp - what the plots share: a temporary folder for a plot's data and script, and running
// gnuplot on it.
#pragma once

#include <filesystem>
#include <string>

namespace gsdk::host {

// A fresh folder for one plot's files, named after `stem` and this process.
std::filesystem::path plot_folder(const std::string& stem);

// Runs gnuplot on dir/plot.gp, then removes dir. Throws std::runtime_error with gnuplot's message when
// gnuplot is missing or fails.
void run_gnuplot(const std::filesystem::path& dir);

} // namespace gsdk::host
