// progress_bar.cpp - rate and ETA on one redrawn terminal line, or on a line every few seconds off a terminal.
#include "report/progress_bar.hpp"

#include <unistd.h>

#include <cstdio>
#include <utility>

#include <fmt/format.h>

namespace gsdk::host {

namespace {

double rate_of(uint64_t done, double elapsed_seconds) {
  return elapsed_seconds > 0 ? static_cast<double>(done) / elapsed_seconds : 0;
}

double eta_of(uint64_t done, uint64_t total, double rate) {
  return rate > 0 && total > done ? static_cast<double>(total - done) / rate : 0;
}

} // namespace

std::string progress_line(const std::string& label, const std::string& unit, uint64_t done, uint64_t total,
                          double elapsed_seconds) {
  const double rate = rate_of(done, elapsed_seconds);
  const double fraction = total == 0 ? 0 : static_cast<double>(done) / static_cast<double>(total);
  return fmt::format("{}: {:.1f}% ({} of {} {}), {:.3g} {}/s, ETA {:.1f}s", label, 100 * fraction, done, total, unit,
                     rate, unit, eta_of(done, total, rate));
}

ProgressBar::ProgressBar(std::string label, std::string unit, const ProgressSettings& settings)
    : label_(std::move(label)), unit_(std::move(unit)), enabled_(settings.shown), lines_(!isatty(STDERR_FILENO)),
      line_seconds_(settings.line_seconds), start_(std::chrono::steady_clock::now()),
      next_line_seconds_(settings.line_seconds) {}

void ProgressBar::update(uint64_t done, uint64_t total) {
  if (!enabled_ || total == 0) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // A bar waits a second, so that short runs draw nothing; a line waits its interval.
  if (lines_ ? elapsed < next_line_seconds_ : elapsed < 1.0) return;
  if (lines_) {
    next_line_seconds_ = elapsed + line_seconds_;
    std::fprintf(stderr, "%s\n", progress_line(label_, unit_, done, total, elapsed).c_str());
    std::fflush(stderr);
    return;
  }
  const double fraction = static_cast<double>(done) / static_cast<double>(total);
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth);
  const double rate = rate_of(done, elapsed);
  std::fprintf(stderr, "\r%s [%s%s] %5.1f%%  %.3g %s/s  ETA %.1fs   ", label_.c_str(), std::string(filled, '#').c_str(),
               std::string(kWidth - filled, '.').c_str(), 100 * fraction, rate, unit_.c_str(),
               eta_of(done, total, rate));
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_ || lines_) return;
  std::fprintf(stderr, "\r%s\r", std::string(label_.size() + unit_.size() + 80, ' ').c_str());
  std::fflush(stderr);
}

} // namespace gsdk::host
