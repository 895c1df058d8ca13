// battle_tally.hpp - what a CPU path accumulates over a range of battles before it is folded into
// the ABI summary: a histogram of ones and the extremes with their lowest battle numbers.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/playout_summary.hpp"

namespace graveler::cpu {

struct BattleTally {
  explicit BattleTally(int rolls) : histogram(static_cast<size_t>(rolls) + 1, 0) {}

  void record(int ones, uint64_t battle) {
    ++histogram[static_cast<size_t>(ones)];
    record_extremes(ones, battle);
  }

  // For SIMD paths that fill the histogram themselves.
  void record_extremes(int ones, uint64_t battle) {
    if (ones > best || (ones == best && battle < best_battle)) {
      best = ones;
      best_battle = battle;
    }
    if (ones < worst || (ones == worst && battle < worst_battle)) {
      worst = ones;
      worst_battle = battle;
    }
  }

  // summary += this, with every score shifted by `ones_offset` (ones rolled before the start state).
  void flush_into(gsdk_playout_summary& summary, int ones_offset) const {
    uint64_t battles = 0;
    for (size_t k = 0; k < histogram.size(); ++k) {
      summary.histogram[k + static_cast<size_t>(ones_offset)] += histogram[k];
      battles += histogram[k];
    }
    if (battles == 0) return;
    summary.playouts += battles;
    gsdk::record_extremes(summary, best + ones_offset, best_battle);
    gsdk::record_extremes(summary, worst + ones_offset, worst_battle);
  }

  std::vector<uint64_t> histogram;
  int best = -1;
  uint64_t best_battle = std::numeric_limits<uint64_t>::max();
  int worst = std::numeric_limits<int>::max();
  uint64_t worst_battle = std::numeric_limits<uint64_t>::max();
};

} // namespace graveler::cpu
