// progress_bar.hpp - progress of a long run on stderr: a redrawn one-line bar on a terminal, shown only for runs
// longer than a second; off a terminal (a log file, a CI job), a plain progress line every few seconds instead. One
// implementation for every command that shows progress (run's algorithms, bench, perft).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace gsdk::host {

// Whether progress is shown (--quiet turns it off), and how often a line is printed off a terminal.
struct ProgressSettings {
  static constexpr double kLineSeconds = 5.0;
  bool shown = true;
  double line_seconds = kLineSeconds;
};

// The line printed off a terminal: "label: 12.5% (125 of 1000 playouts), 250 playouts/s, ETA 3.5s". `unit` is what
// done and total count, in the plural ("playouts", "subtrees", "games"): a rate without it reads as the report's
// rate, which may count something else (perft's report counts nodes, its progress subtrees).
std::string progress_line(const std::string& label, const std::string& unit, uint64_t done, uint64_t total,
                          double elapsed_seconds);

class ProgressBar {
public:
  // `unit`: what update's counts count, in the plural (progress_line).
  ProgressBar(std::string label, std::string unit, const ProgressSettings& settings);
  void update(uint64_t done, uint64_t total);
  void finish(); // clears the line if anything was drawn

private:
  std::string label_;
  std::string unit_;
  bool enabled_;
  bool lines_; // off a terminal: lines instead of a redrawn bar
  double line_seconds_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  double next_line_seconds_;
};

} // namespace gsdk::host
