// playout_result.hpp - an owning C++ form of gsdk_playout_summary plus the statistics a report shows.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gsdk/gsdk_plugin.h"

namespace gsdk::core {

struct PlayoutResult {
  PlayoutResult(int64_t score_min, uint32_t bins);

  // A summary whose histogram aliases ours, for a plugin to add into; absorb() takes the scalars back.
  gsdk_playout_summary bind();
  void absorb(const gsdk_playout_summary& summary);
  void merge(const PlayoutResult& other);

  double mean() const;
  double variance() const; // population variance of the scores

  // What the result's own numbers contradict, one sentence each (none: consistent): a histogram whose counts do not
  // add up to `playouts`, a best or worst score with no playout in its bin, a best score below the worst. A result
  // read back from a file (a checkpoint, a results file) is checked with it before it is trusted.
  std::vector<std::string> contradictions() const;
  // Canonical text of the result and its SHA-1: two runs agree iff their digests do.
  std::string canonical() const;
  std::string digest() const;

  int64_t score_min;
  std::vector<uint64_t> histogram;
  uint64_t playouts = 0;
  int64_t best_score = std::numeric_limits<int64_t>::min();
  uint64_t best_playout = std::numeric_limits<uint64_t>::max();
  int64_t worst_score = std::numeric_limits<int64_t>::max();
  uint64_t worst_playout = std::numeric_limits<uint64_t>::max();
  double device_milliseconds = 0;
};

// Pearson's chi-square of an observed histogram against exact probabilities, pooling the tails so
// every cell expects at least 5 counts.
struct ChiSquare {
  double statistic = 0;
  int degrees_of_freedom = 0;
  double p_value = 1;
};
ChiSquare chi_square(const std::vector<uint64_t>& observed, const std::vector<double>& probabilities);

} // namespace gsdk::core
