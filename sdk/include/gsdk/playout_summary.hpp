// playout_summary.hpp - exact, order-independent reduction of playout scores (gsdk_playout_summary).
//
// Every field is an integer count or an extreme with a lowest-playout-number tie-break, so merging
// partial summaries in any order gives bit-identical results: this is what lets the scheduler split
// work freely across threads, GPUs and processes.
#pragma once

#include <cstdint>
#include <limits>

#include "gsdk/gsdk_plugin.h"

namespace gsdk {

// Clears counts and extremes; keeps the caller's histogram pointer and size.
inline void reset_summary(gsdk_playout_summary& s) {
  s.header = {GSDK_TYPE_PLAYOUT_SUMMARY, sizeof(gsdk_playout_summary)};
  s.playouts = 0;
  s.best_score = std::numeric_limits<int64_t>::min();
  s.best_playout = std::numeric_limits<uint64_t>::max();
  s.worst_score = std::numeric_limits<int64_t>::max();
  s.worst_playout = std::numeric_limits<uint64_t>::max();
  for (uint32_t i = 0; i < s.histogram_bins; ++i) s.histogram[i] = 0;
  s.device_milliseconds = 0;
}

inline void record_extremes(gsdk_playout_summary& s, int64_t score, uint64_t playout) {
  if (score > s.best_score || (score == s.best_score && playout < s.best_playout)) {
    s.best_score = score;
    s.best_playout = playout;
  }
  if (score < s.worst_score || (score == s.worst_score && playout < s.worst_playout)) {
    s.worst_score = score;
    s.worst_playout = playout;
  }
}

// Adds one playout; bin = score - score_min of the game.
inline void record_playout(gsdk_playout_summary& s, int64_t score, uint64_t playout, int64_t score_min) {
  ++s.playouts;
  ++s.histogram[score - score_min];
  record_extremes(s, score, playout);
}

// into += from. Both histograms must have the same bins.
inline void merge_summary(gsdk_playout_summary& into, const gsdk_playout_summary& from) {
  if (from.playouts == 0) return;
  into.playouts += from.playouts;
  for (uint32_t i = 0; i < into.histogram_bins; ++i) into.histogram[i] += from.histogram[i];
  record_extremes(into, from.best_score, from.best_playout);
  record_extremes(into, from.worst_score, from.worst_playout);
  into.device_milliseconds += from.device_milliseconds;
}

} // namespace gsdk
