// lane_bookkeeping.hpp - what the SIMD kernels do besides counting, kept off the vector ports.
//
// Histogram: a pair's two counts (each < 256) form one index a * 256 + b into a 2-D histogram, so
// one scalar increment serves two battles; it is folded to 1-D at the end.
// Extremes: the kernels keep only a per-lane max and min over blocks of kBlockPairs pairs (two
// vector ops a pair). Each lane remembers the first block that raised its max (lowered its min);
// afterwards the scalar path rescans just that block for the exact first battle. This gives the
// same "lowest battle number" tie-break as tracking every battle, at a fraction of the cost.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "../graveler_rules.hpp"
#include "battle_tally.hpp"

namespace graveler::cpu {

// Largest roll count the SIMD kernels take (both counts of a pair must fit a byte).
inline constexpr int kSimdMaxRolls = 255;

class PairHistogram {
public:
  PairHistogram() : bins_(1u << 16, 0) {}
  void add(const uint64_t* indices, int count) {
    for (int i = 0; i < count; ++i) ++bins_[indices[i] & 0xffff];
  }
  void fold_into(BattleTally& tally) const {
    for (uint32_t index = 0; index < bins_.size(); ++index) {
      if (bins_[index] == 0) continue;
      tally.histogram[index >> 8] += bins_[index];
      tally.histogram[index & 0xff] += bins_[index];
    }
  }

private:
  std::vector<uint32_t> bins_; // a call covers < 2^32 pairs per lane set (see run_battles)
};

class LaneExtremes {
public:
  static constexpr uint64_t kBlockPairs = 64;

  explicit LaneExtremes(int lanes)
      : best_(lanes, -1), worst_(lanes, INT_MAX), best_block_(lanes, 0), worst_block_(lanes, 0) {}

  // block_max[l * stride] / block_min[l * stride] are lane l's extremes over block `block`.
  void end_block(const uint32_t* block_max, const uint32_t* block_min, int stride, uint64_t block) {
    for (size_t l = 0; l < best_.size(); ++l) {
      const int hi = static_cast<int>(block_max[l * stride]), lo = static_cast<int>(block_min[l * stride]);
      if (hi > best_[l]) best_[l] = hi, best_block_[l] = block;
      if (lo < worst_[l]) worst_[l] = lo, worst_block_[l] = block;
    }
  }

  // Finds the first battle reaching the lanes' best and worst and records them in tally.
  void resolve(const BattleLayout& layout, uint64_t seed, uint64_t first_pair, uint64_t pairs_per_lane,
               BattleTally& tally) const {
    resolve_one(layout, seed, first_pair, pairs_per_lane, best_, best_block_, true, tally);
    resolve_one(layout, seed, first_pair, pairs_per_lane, worst_, worst_block_, false, tally);
  }

private:
  static void resolve_one(const BattleLayout& layout, uint64_t seed, uint64_t first_pair, uint64_t pairs_per_lane,
                          const std::vector<int>& value, const std::vector<uint64_t>& block, bool highest,
                          BattleTally& tally) {
    size_t lane = 0; // lanes cover ascending pair ranges, so the first lane holding the extreme wins
    for (size_t l = 1; l < value.size(); ++l)
      if (highest ? value[l] > value[lane] : value[l] < value[lane]) lane = l;
    const uint64_t lane_begin = first_pair + lane * pairs_per_lane;
    const uint64_t begin = lane_begin + block[lane] * kBlockPairs;
    const uint64_t end = std::min(begin + kBlockPairs, lane_begin + pairs_per_lane);
    gsdk::rng::Mwc64x g = gsdk::rng::Mwc64x::at(seed, begin * static_cast<uint64_t>(layout.words_per_pair));
    for (uint64_t q = begin; q < end; ++q) {
      int a, b;
      count_pair(g, layout, a, b);
      if (a == value[lane]) return tally.record_extremes(a, 2 * q);
      if (b == value[lane]) return tally.record_extremes(b, 2 * q + 1);
    }
  }

  std::vector<int> best_, worst_;
  std::vector<uint64_t> best_block_, worst_block_;
};

} // namespace graveler::cpu
