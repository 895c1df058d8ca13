// battles_avx512.cpp - graveler's AVX-512 kernel (compiled with -mavx512f -mavx512bw
// -mavx512vpopcntdq; only called after a run-time check).
//
// Each 64-bit lane runs its own MWC64X stream over a contiguous run of battle pairs, so the lanes
// compute exactly the battles the scalar reference computes. Four independent vectors (32 lanes) are
// interleaved because one MWC step is a 6-cycle dependency chain (multiply, add) and a single
// vector would leave the two 512-bit ports idle. Only the low 32 bits of a lane are an output word;
// counts are accumulated in 32-bit lanes so the high halves never disturb them.
#include <immintrin.h>

#include "battles_cpu.hpp"

namespace graveler::cpu {

namespace {

constexpr int kVectors = 4;

struct Lanes {
  __m512i state[kVectors];

  __m512i next(int v) {
    const __m512i hi = _mm512_srli_epi64(state[v], 32);
    const __m512i out = _mm512_xor_si512(state[v], hi);
    state[v] = _mm512_add_epi64(_mm512_mul_epu32(state[v], _mm512_set1_epi64(gsdk::rng::mwc64x_constants::kMultiplier)), hi);
    return out;
  }
};

inline __m512i popcount_and(__m512i x, __m512i y) { return _mm512_popcnt_epi32(_mm512_and_si512(x, y)); }

// Per-lane extremes: counts are compared as 64-bit values with the high half cleared.
struct LaneExtremes {
  __m512i best = _mm512_set1_epi64(-1), best_battle = _mm512_setzero_si512();
  __m512i worst = _mm512_set1_epi64(INT64_MAX), worst_battle = _mm512_setzero_si512();

  void update(__m512i ones, __m512i battle) {
    const __mmask8 higher = _mm512_cmpgt_epi64_mask(ones, best);
    best = _mm512_mask_mov_epi64(best, higher, ones);
    best_battle = _mm512_mask_mov_epi64(best_battle, higher, battle);
    const __mmask8 lower = _mm512_cmplt_epi64_mask(ones, worst);
    worst = _mm512_mask_mov_epi64(worst, lower, ones);
    worst_battle = _mm512_mask_mov_epi64(worst_battle, lower, battle);
  }

  void fold_into(BattleTally& tally) const {
    alignas(64) int64_t b[8], bb[8], w[8], wb[8];
    _mm512_store_si512(b, best);
    _mm512_store_si512(bb, best_battle);
    _mm512_store_si512(w, worst);
    _mm512_store_si512(wb, worst_battle);
    for (int i = 0; i < 8; ++i) {
      tally.record_extremes(static_cast<int>(b[i]), static_cast<uint64_t>(bb[i]));
      tally.record_extremes(static_cast<int>(w[i]), static_cast<uint64_t>(wb[i]));
    }
  }
};

} // namespace

void tally_pairs_avx512(const BattleLayout& layout, uint64_t seed, uint64_t first_pair, uint64_t pairs_per_lane,
                        BattleTally& tally) {
  const uint64_t words = static_cast<uint64_t>(layout.words_per_pair);
  const uint64_t s0 = gsdk::rng::mwc64x_seed_state(seed);
  Lanes lanes;
  __m512i battle_a[kVectors];
  for (int v = 0; v < kVectors; ++v) {
    alignas(64) uint64_t start[8], battle[8];
    for (int i = 0; i < 8; ++i) {
      const uint64_t pair = first_pair + static_cast<uint64_t>(v * 8 + i) * pairs_per_lane;
      start[i] = gsdk::rng::mwc64x_jump(s0, pair * words);
      battle[i] = 2 * pair;
    }
    lanes.state[v] = _mm512_load_si512(start);
    battle_a[v] = _mm512_load_si512(battle);
  }

  const int k = layout.full_words, r = layout.tail_rolls;
  const __m512i low32 = _mm512_set1_epi64(0xffffffffll);
  const __m512i tail_mask = _mm512_set1_epi64(gsdk::bits::low_mask32(r));
  const __m512i two = _mm512_set1_epi64(2), one = _mm512_set1_epi64(1);
  uint64_t* const histogram = tally.histogram.data();
  LaneExtremes extremes[kVectors];

  for (uint64_t step = 0; step < pairs_per_lane; ++step) {
    __m512i ones_a[kVectors], ones_b[kVectors];
    for (int v = 0; v < kVectors; ++v) ones_a[v] = ones_b[v] = _mm512_setzero_si512();
    for (int i = 0; i < k; ++i)
      for (int v = 0; v < kVectors; ++v) {
        const __m512i x = lanes.next(v);
        ones_a[v] = _mm512_add_epi32(ones_a[v], popcount_and(x, lanes.next(v)));
      }
    for (int i = 0; i < k; ++i)
      for (int v = 0; v < kVectors; ++v) {
        const __m512i x = lanes.next(v);
        ones_b[v] = _mm512_add_epi32(ones_b[v], popcount_and(x, lanes.next(v)));
      }
    if (r != 0) {
      for (int v = 0; v < kVectors; ++v) {
        if (layout.shared_tail) {
          const __m512i t = lanes.next(v);
          const __m512i ta = _mm512_and_si512(_mm512_and_si512(t, _mm512_srli_epi64(t, r)), tail_mask);
          const __m512i tb = _mm512_and_si512(
              _mm512_and_si512(_mm512_srli_epi64(t, 2 * r), _mm512_srli_epi64(t, 3 * r)), tail_mask);
          ones_a[v] = _mm512_add_epi32(ones_a[v], _mm512_popcnt_epi32(ta));
          ones_b[v] = _mm512_add_epi32(ones_b[v], _mm512_popcnt_epi32(tb));
        } else {
          const __m512i a0 = lanes.next(v), a1 = lanes.next(v);
          ones_a[v] = _mm512_add_epi32(ones_a[v], popcount_and(_mm512_and_si512(a0, a1), tail_mask));
          const __m512i b0 = lanes.next(v), b1 = lanes.next(v);
          ones_b[v] = _mm512_add_epi32(ones_b[v], popcount_and(_mm512_and_si512(b0, b1), tail_mask));
        }
      }
    }
    for (int v = 0; v < kVectors; ++v) {
      const __m512i a = _mm512_and_si512(ones_a[v], low32), b = _mm512_and_si512(ones_b[v], low32);
      extremes[v].update(a, battle_a[v]);
      extremes[v].update(b, _mm512_add_epi64(battle_a[v], one));
      battle_a[v] = _mm512_add_epi64(battle_a[v], two);
      alignas(64) uint64_t counts_a[8], counts_b[8];
      _mm512_store_si512(counts_a, a);
      _mm512_store_si512(counts_b, b);
      for (int i = 0; i < 8; ++i) {
        ++histogram[counts_a[i]];
        ++histogram[counts_b[i]];
      }
    }
  }
  for (const auto& e : extremes) e.fold_into(tally);
}

} // namespace graveler::cpu
