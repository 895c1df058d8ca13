// progress_bar.hpp - a one-line progress bar on a terminal, shown only for runs longer than a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace gsdk::host {

class ProgressBar {
public:
  // Draws only when stderr is a terminal and `enabled`.
  ProgressBar(std::string label, bool enabled);
  void update(uint64_t done, uint64_t total);
  void finish(); // clears the line if anything was drawn

private:
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

} // namespace gsdk::host
