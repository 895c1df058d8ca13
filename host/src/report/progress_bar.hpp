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

class ProgressBar {
public:
  ProgressBar(std::string label, const ProgressSettings& settings);
  void update(uint64_t done, uint64_t total);
  void finish(); // clears the line if anything was drawn

private:
  std::string label_;
  bool enabled_;
  bool lines_; // off a terminal: lines instead of a redrawn bar
  double line_seconds_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  double next_line_seconds_;
};

} // namespace gsdk::host
