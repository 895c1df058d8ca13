// gnuplot.hpp - what the plots share: a temporary folder for a plot's data and script, and running
// gnuplot on it.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace gsdk::host {

// A fresh folder for one plot's files, named after `stem` and this process.
std::filesystem::path plot_folder(const std::string& stem);

// Opens dir/plot.gp with the lines every plot starts with: `terminal` (e.g. "pngcairo size 1000,600"),
// the PNG to write (whose folder it creates) and the title. The caller adds axes and the plot command.
std::ofstream open_plot_script(const std::filesystem::path& dir, const std::string& png_path, const std::string& title,
                               const std::string& terminal);

// Runs gnuplot on dir/plot.gp, then removes dir. Throws std::runtime_error with gnuplot's message when
// gnuplot is missing or fails.
void run_gnuplot(const std::filesystem::path& dir);

} // namespace gsdk::host
