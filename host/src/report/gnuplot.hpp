// gnuplot.hpp - what the plots share: a temporary folder for a plot's data and script, and running
// gnuplot on it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace gsdk::host {

// `text` as one gnuplot single-quoted string: a quote doubled (gnuplot's only escape in single quotes; a backslash
// is an ordinary character there, unlike in double quotes), and a line break, which would end the command, turned
// into a space. Paths and titles may hold any character a user typed (a config's name, TMPDIR).
std::string gnuplot_quoted(const std::string& text);

// `text` as one POSIX shell word: single-quoted, a quote written as '\'' (the shell has no escape inside quotes).
std::string shell_quoted(const std::string& text);

// The step between ticks of an axis of whole numbers from `lo` to `hi`: 1, 2 or 5 times a power of ten, at most about
// ten ticks, never below 1, so that no tick falls between two whole numbers (gnuplot's own choice over a short range
// is 0.5 or 0.2).
int64_t integer_tic_step(int64_t lo, int64_t hi);

// A fresh folder for one plot's files, named after `stem` and this process.
std::filesystem::path plot_folder(const std::string& stem);

// Opens dir/plot.gp with the lines every plot starts with: `terminal` (e.g. "pngcairo size 1000,600"),
// the picture's file in the folder and the title (shown as typed: no enhanced-text markup). The caller adds axes and
// the plot command, quoting its file names with gnuplot_quoted.
std::ofstream open_plot_script(const std::filesystem::path& dir, const std::string& title, const std::string& terminal);

// Why gnuplot failed, from std::system's `status` (a wait status, or -1 with `system_errno`) and what gnuplot wrote on
// stderr; empty when it succeeded. The shell's 127 (no such command) says gnuplot is missing and how to do without it;
// an exit code is decoded from the wait status (WEXITSTATUS), a signal named.
std::string gnuplot_failure(int status, int system_errno, const std::string& err_text);

// Runs gnuplot on dir/plot.gp, writes its picture to `png_path` (atomically, output_file.hpp), then removes
// dir. Throws std::runtime_error with gnuplot's message when gnuplot is missing or fails, OutputError when the
// picture cannot be written.
void run_gnuplot(const std::filesystem::path& dir, const std::string& png_path);

} // namespace gsdk::host
