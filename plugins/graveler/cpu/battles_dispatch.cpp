// battles_dispatch.cpp - picks the CPU kernel at run time and cuts a battle range into the part the
// SIMD lanes take and the edges the scalar path takes.
#include "battles_cpu.hpp"
#include "lane_bookkeeping.hpp"

#include <algorithm>

namespace graveler::cpu {

int32_t best_simd_level() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vpopcntdq"))
    return GSDK_SIMD_AVX512;
  if (__builtin_cpu_supports("avx2")) return GSDK_SIMD_AVX2;
#endif
  return GSDK_SIMD_SCALAR;
}

namespace {

// Bounds one kernel call so the SIMD kernels' 32-bit histogram bins cannot overflow.
constexpr uint64_t kMaxBattlesPerCall = uint64_t{1} << 31;

void run_chunk(const BattleLayout& layout, uint64_t seed, uint64_t first, uint64_t count, int32_t simd_level,
               BattleTally& tally) {
  const uint64_t end = first + count;
  // Battles of pairs that straddle the range's ends go through the scalar reference one by one.
  if (first & 1) tally.record(battle_ones(seed, layout, first), first);
  const uint64_t pair_begin = (first + 1) / 2;
  const uint64_t pair_end = std::max(pair_begin, end / 2);
  if (end & 1) tally.record(battle_ones(seed, layout, end - 1), end - 1);

  // The SIMD kernels pack a pair's counts into bytes; longer battles take the scalar path.
  const int32_t level = layout.rolls > kSimdMaxRolls ? GSDK_SIMD_SCALAR : std::min(simd_level, best_simd_level());
  const uint64_t pairs = pair_end - pair_begin;
  const uint64_t lanes = level == GSDK_SIMD_AVX512 ? kAvx512Lanes : kAvx2Lanes;
  const uint64_t per_lane = level == GSDK_SIMD_SCALAR ? 0 : pairs / lanes;
  if (per_lane > 0) {
    if (level == GSDK_SIMD_AVX512)
      tally_pairs_avx512(layout, seed, pair_begin, per_lane, tally);
    else
      tally_pairs_avx2(layout, seed, pair_begin, per_lane, tally);
  }
  const uint64_t simd_pairs = per_lane * lanes;
  tally_pairs_scalar(layout, seed, pair_begin + simd_pairs, pairs - simd_pairs, tally);
}

} // namespace

void run_battles(const BattleLayout& layout, int ones_offset, uint64_t seed, uint64_t first, uint64_t count,
                 int32_t simd_level, gsdk_playout_summary& summary) {
  BattleTally tally(layout.rolls);
  for (uint64_t done = 0; done < count; done += kMaxBattlesPerCall)
    run_chunk(layout, seed, first + done, std::min(kMaxBattlesPerCall, count - done), simd_level, tally);
  tally.flush_into(summary, ones_offset);
}

} // namespace graveler::cpu
