// battles_avx512.cpp - graveler's AVX-512 kernel (AVX-512 F/BW/VPOPCNTDQ code in an
// instruction-set region, gsdk/isa.hpp; only called after a run-time check).
//
// Each 64-bit lane runs its own MWC64X stream over a contiguous run of battle pairs, so the lanes
// compute exactly the battles the scalar reference computes. Four independent vectors (32 lanes)
// are interleaved because one MWC step is a 6-cycle dependency chain (multiply, add). Only the low
// 32 bits of a lane are an output word; counts are accumulated in 32-bit lanes so the high halves
// never disturb them. The two 512-bit ports are the bottleneck, so everything else (histogram,
// extremes) is arranged to cost as few vector operations as possible: see lane_bookkeeping.hpp and
// docs/perf/graveler.md.
#include <immintrin.h>

#include "battles_cpu.hpp"
#include "gsdk/isa.hpp"
#include "lane_bookkeeping.hpp"

GSDK_BEGIN_AVX512

namespace graveler::cpu {

namespace {

constexpr int kVectors = 4;
constexpr int kLanes = kVectors * 8;
static_assert(kLanes == static_cast<int>(kAvx512Lanes));

// (a ^ b) & c and a & b & c as vpternlog immediates.
constexpr int kXorThenAnd = 0x28;
constexpr int kAnd3 = 0x80;
constexpr int kOrThenAnd = 0xa8;

struct Lanes {
  __m512i state[kVectors];

  // One MWC step of vector v: the word's output is the low half of s ^ h.
  void step(int v, __m512i& s, __m512i& h) {
    s = state[v];
    h = _mm512_srli_epi64(s, 32);
    state[v] = _mm512_add_epi64(_mm512_mul_epu32(s, _mm512_set1_epi64(gsdk::rng::mwc64x_constants::kMultiplier)), h);
  }

  // The AND of the next two output words.
  __m512i next_and(int v) {
    __m512i s1, h1, s2, h2;
    step(v, s1, h1);
    step(v, s2, h2);
    return _mm512_ternarylogic_epi64(s1, h1, _mm512_xor_si512(s2, h2), kXorThenAnd);
  }

  __m512i next(int v) {
    __m512i s, h;
    step(v, s, h);
    return _mm512_xor_si512(s, h);
  }
};

// Rolls == 0: the layout comes at run time; otherwise it is a compile-time constant so the word
// loops unroll fully and the lane states stay in registers.
template <int Rolls>
void tally_pairs(const BattleLayout& runtime_layout, uint64_t seed, uint64_t first_pair, uint64_t pairs_per_lane,
                 BattleTally& tally) {
  const BattleLayout layout = Rolls != 0 ? BattleLayout::for_rolls(Rolls) : runtime_layout;
  const uint64_t words = static_cast<uint64_t>(layout.words_per_pair);
  const uint64_t s0 = gsdk::rng::mwc64x_seed_state(seed);
  Lanes lanes;
  for (int v = 0; v < kVectors; ++v) {
    alignas(64) uint64_t start[8];
    for (int i = 0; i < 8; ++i)
      start[i] = gsdk::rng::mwc64x_jump(s0, (first_pair + static_cast<uint64_t>(v * 8 + i) * pairs_per_lane) * words);
    lanes.state[v] = _mm512_load_si512(start);
  }

  const int k = layout.full_words, r = layout.tail_rolls;
  const __m512i tail_mask = _mm512_set1_epi64(gsdk::bits::low_mask32(r));
  const __m512i index_mask = _mm512_set1_epi64(0xffff);
  PairHistogram histogram;
  LaneExtremes extremes(kLanes);
  alignas(64) uint64_t indices[kLanes];
  alignas(64) uint32_t block_max[2 * kLanes], block_min[2 * kLanes];

  for (uint64_t block_begin = 0, block = 0; block_begin < pairs_per_lane;
       block_begin += LaneExtremes::kBlockPairs, ++block) {
    const uint64_t block_end = std::min(block_begin + LaneExtremes::kBlockPairs, pairs_per_lane);
    __m512i high[kVectors], low[kVectors];
    for (int v = 0; v < kVectors; ++v) {
      high[v] = _mm512_setzero_si512();
      low[v] = _mm512_set1_epi32(-1);
    }
    for (uint64_t step = block_begin; step < block_end; ++step) {
      __m512i ones_a[kVectors], ones_b[kVectors];
      for (int v = 0; v < kVectors; ++v) ones_a[v] = ones_b[v] = _mm512_setzero_si512();
      for (int i = 0; i < k; ++i)
        for (int v = 0; v < kVectors; ++v) ones_a[v] = _mm512_add_epi32(ones_a[v], _mm512_popcnt_epi32(lanes.next_and(v)));
      for (int i = 0; i < k; ++i)
        for (int v = 0; v < kVectors; ++v) ones_b[v] = _mm512_add_epi32(ones_b[v], _mm512_popcnt_epi32(lanes.next_and(v)));
      if (r != 0) {
        for (int v = 0; v < kVectors; ++v) {
          __m512i ta, tb;
          if (layout.shared_tail) {
            const __m512i t = lanes.next(v);
            ta = _mm512_ternarylogic_epi64(t, _mm512_srli_epi64(t, r), tail_mask, kAnd3);
            tb = _mm512_ternarylogic_epi64(_mm512_srli_epi64(t, 2 * r), _mm512_srli_epi64(t, 3 * r), tail_mask, kAnd3);
          } else {
            ta = _mm512_and_si512(lanes.next_and(v), tail_mask);
            tb = _mm512_and_si512(lanes.next_and(v), tail_mask);
          }
          ones_a[v] = _mm512_add_epi32(ones_a[v], _mm512_popcnt_epi32(ta));
          ones_b[v] = _mm512_add_epi32(ones_b[v], _mm512_popcnt_epi32(tb));
        }
      }
      for (int v = 0; v < kVectors; ++v) {
        // Garbage in the high halves is shifted or masked away; only even 32-bit lanes are read.
        const __m512i index = _mm512_ternarylogic_epi64(_mm512_slli_epi64(ones_a[v], 8), ones_b[v], index_mask, kOrThenAnd);
        _mm512_store_si512(indices + 8 * v, index);
        high[v] = _mm512_max_epu32(high[v], _mm512_max_epu32(ones_a[v], ones_b[v]));
        low[v] = _mm512_min_epu32(low[v], _mm512_min_epu32(ones_a[v], ones_b[v]));
      }
      histogram.add(indices, kLanes);
    }
    for (int v = 0; v < kVectors; ++v) {
      _mm512_store_si512(block_max + 16 * v, high[v]);
      _mm512_store_si512(block_min + 16 * v, low[v]);
    }
    extremes.end_block(block_max, block_min, 2, block);
  }
  histogram.fold_into(tally);
  extremes.resolve(layout, seed, first_pair, pairs_per_lane, tally);
}

} // namespace

void tally_pairs_avx512(const BattleLayout& layout, uint64_t seed, uint64_t first_pair, uint64_t pairs_per_lane,
                        BattleTally& tally) {
  if (layout.rolls == kDefaultRolls) return tally_pairs<kDefaultRolls>(layout, seed, first_pair, pairs_per_lane, tally);
  tally_pairs<0>(layout, seed, first_pair, pairs_per_lane, tally);
}

} // namespace graveler::cpu

GSDK_END_ISA
