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
// the picture's file in the folder and the title. The caller adds axes and the plot command.
std::ofstream open_plot_script(const std::filesystem::path& dir, const std::string& title, const std::string& terminal);

// Runs gnuplot on dir/plot.gp, writes its picture to `png_path` (atomically, output_file.hpp), then removes
// dir. Throws std::runtime_error with gnuplot's message when gnuplot is missing or fails, OutputError when the
// picture cannot be written.
void run_gnuplot(const std::filesystem::path& dir, const std::string& png_path);

} // namespace gsdk::host
