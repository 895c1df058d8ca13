// battles_cpu.hpp - graveler's CPU batch path: scalar reference, AVX2 and AVX-512 kernels chosen at
// run time, all producing the same ones for every battle.
#pragma once

#include <cstdint>

#include "../graveler_rules.hpp"
#include "battle_tally.hpp"
#include "gsdk/gsdk_plugin.h"

namespace graveler::cpu {

// Highest GSDK_SIMD_* level both compiled in and supported by this processor.
int32_t best_simd_level();

// Battles [first, first + count) of `seed`, folded into summary with scores offset by ones_offset.
void run_battles(const BattleLayout& layout, int ones_offset, uint64_t seed, uint64_t first, uint64_t count,
                 int32_t simd_level, gsdk_playout_summary& summary);

// Scalar reference over whole pairs [first_pair, first_pair + pairs).
void tally_pairs_scalar(const BattleLayout& layout, uint64_t seed, uint64_t first_pair, uint64_t pairs,
                        BattleTally& tally);

// SIMD kernels: lane l of `Lanes` covers pairs [first_pair + l * pairs_per_lane, ... + pairs_per_lane).
inline constexpr uint64_t kAvx512Lanes = 32;
inline constexpr uint64_t kAvx2Lanes = 16;
void tally_pairs_avx512(const BattleLayout& layout, uint64_t seed, uint64_t first_pair, uint64_t pairs_per_lane,
                        BattleTally& tally);
void tally_pairs_avx2(const BattleLayout& layout, uint64_t seed, uint64_t first_pair, uint64_t pairs_per_lane,
                      BattleTally& tally);

} // namespace graveler::cpu
