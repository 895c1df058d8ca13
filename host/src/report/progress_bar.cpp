// progress_bar.cpp - rate and ETA on one redrawn terminal line, or on a line every few seconds off a terminal.
#include "report/progress_bar.hpp"

#include <unistd.h>

#include <cstdio>
#include <utility>

#include <fmt/format.h>

namespace gsdk::host {

ProgressBar::ProgressBar(std::string label, const ProgressSettings& settings)
    : label_(std::move(label)), enabled_(settings.shown), lines_(!isatty(STDERR_FILENO)),
      line_seconds_(settings.line_seconds), start_(std::chrono::steady_clock::now()),
      next_line_seconds_(settings.line_seconds) {}

void ProgressBar::update(uint64_t done, uint64_t total) {
  if (!enabled_ || total == 0) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // A bar waits a second, so that short runs draw nothing; a line waits its interval.
  if (lines_ ? elapsed < next_line_seconds_ : elapsed < 1.0) return;
  const double fraction = static_cast<double>(done) / static_cast<double>(total);
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth);
  const double rate = done / elapsed;
  const double eta = rate > 0 ? (total - done) / rate : 0;
  if (lines_) {
    next_line_seconds_ = elapsed + line_seconds_;
    std::fprintf(stderr, "%s: %.1f%% (%llu of %llu), %.3g/s, ETA %.1fs\n", label_.c_str(), 100 * fraction,
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total), rate, eta);
    std::fflush(stderr);
    return;
  }
  std::fprintf(stderr, "\r%s [%s%s] %5.1f%%  %.3g/s  ETA %.1fs   ", label_.c_str(), std::string(filled, '#').c_str(),
               std::string(kWidth - filled, '.').c_str(), 100 * fraction, rate, eta);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_ || lines_) return;
  std::fprintf(stderr, "\r%s\r", std::string(label_.size() + 80, ' ').c_str());
  std::fflush(stderr);
}

} // namespace gsdk::host
