// progress_bar.hpp - a one-line progress bar on a terminal, shown only for runs longer than a second; off a
// terminal (a log file, a CI job), optionally a plain progress line every few seconds instead.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace gsdk::host {

class ProgressBar {
public:
  // Draws only when `enabled`: a redrawn bar when stderr is a terminal, else a line every kLineSeconds when
  // `lines_off_tty`.
  ProgressBar(std::string label, bool enabled, bool lines_off_tty = false);
  void update(uint64_t done, uint64_t total);
  void finish(); // clears the line if anything was drawn

  static constexpr double kLineSeconds = 5.0;

private:
  std::string label_;
  bool enabled_;
  bool lines_; // off a terminal: lines instead of a redrawn bar
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  double next_line_seconds_ = kLineSeconds;
};

} // namespace gsdk::host
