// battles_avx2.cpp - graveler's AVX2 kernel for processors without AVX-512 (compiled with -mavx2;
// only called after a run-time check). Same lanes and layout as the AVX-512 kernel, 4 lanes a
// vector; AVX2 has no vector popcount, so bytes are counted with a nibble table (vpshufb) and summed
// per lane with vpsadbw.
#include <immintrin.h>

#include "battles_cpu.hpp"

namespace graveler::cpu {

namespace {

constexpr int kVectors = 4;

struct Lanes {
  __m256i state[kVectors];

  __m256i next(int v) {
    const __m256i hi = _mm256_srli_epi64(state[v], 32);
    const __m256i out = _mm256_xor_si256(state[v], hi);
    state[v] = _mm256_add_epi64(_mm256_mul_epu32(state[v], _mm256_set1_epi64x(gsdk::rng::mwc64x_constants::kMultiplier)), hi);
    return out;
  }
};

// Popcount of the low 32 bits of each 64-bit lane, as a 64-bit lane.
inline __m256i popcount_low32(__m256i x) {
  const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1,
                                         2, 2, 3, 2, 3, 3, 4);
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  x = _mm256_and_si256(x, _mm256_set1_epi64x(0xffffffffll));
  const __m256i lo = _mm256_shuffle_epi8(table, _mm256_and_si256(x, nibble));
  const __m256i hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble));
  return _mm256_sad_epu8(_mm256_add_epi8(lo, hi), _mm256_setzero_si256());
}

struct LaneExtremes {
  __m256i best = _mm256_set1_epi64x(-1), best_battle = _mm256_setzero_si256();
  __m256i worst = _mm256_set1_epi64x(INT64_MAX), worst_battle = _mm256_setzero_si256();

  void update(__m256i ones, __m256i battle) {
    const __m256i higher = _mm256_cmpgt_epi64(ones, best);
    best = _mm256_blendv_epi8(best, ones, higher);
    best_battle = _mm256_blendv_epi8(best_battle, battle, higher);
    const __m256i lower = _mm256_cmpgt_epi64(worst, ones);
    worst = _mm256_blendv_epi8(worst, ones, lower);
    worst_battle = _mm256_blendv_epi8(worst_battle, battle, lower);
  }

  void fold_into(BattleTally& tally) const {
    alignas(32) int64_t b[4], bb[4], w[4], wb[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(b), best);
    _mm256_store_si256(reinterpret_cast<__m256i*>(bb), best_battle);
    _mm256_store_si256(reinterpret_cast<__m256i*>(w), worst);
    _mm256_store_si256(reinterpret_cast<__m256i*>(wb), worst_battle);
    for (int i = 0; i < 4; ++i) {
      tally.record_extremes(static_cast<int>(b[i]), static_cast<uint64_t>(bb[i]));
      tally.record_extremes(static_cast<int>(w[i]), static_cast<uint64_t>(wb[i]));
    }
  }
};

} // namespace

void tally_pairs_avx2(const BattleLayout& layout, uint64_t seed, uint64_t first_pair, uint64_t pairs_per_lane,
                      BattleTally& tally) {
  const uint64_t words = static_cast<uint64_t>(layout.words_per_pair);
  const uint64_t s0 = gsdk::rng::mwc64x_seed_state(seed);
  Lanes lanes;
  __m256i battle_a[kVectors];
  for (int v = 0; v < kVectors; ++v) {
    alignas(32) uint64_t start[4], battle[4];
    for (int i = 0; i < 4; ++i) {
      const uint64_t pair = first_pair + static_cast<uint64_t>(v * 4 + i) * pairs_per_lane;
      start[i] = gsdk::rng::mwc64x_jump(s0, pair * words);
      battle[i] = 2 * pair;
    }
    lanes.state[v] = _mm256_load_si256(reinterpret_cast<const __m256i*>(start));
    battle_a[v] = _mm256_load_si256(reinterpret_cast<const __m256i*>(battle));
  }

  const int k = layout.full_words, r = layout.tail_rolls;
  const __m256i tail_mask = _mm256_set1_epi64x(gsdk::bits::low_mask32(r));
  const __m256i two = _mm256_set1_epi64x(2), one = _mm256_set1_epi64x(1);
  uint64_t* const histogram = tally.histogram.data();
  LaneExtremes extremes[kVectors];

  for (uint64_t step = 0; step < pairs_per_lane; ++step) {
    __m256i ones_a[kVectors], ones_b[kVectors];
    for (int v = 0; v < kVectors; ++v) ones_a[v] = ones_b[v] = _mm256_setzero_si256();
    for (int i = 0; i < k; ++i)
      for (int v = 0; v < kVectors; ++v) {
        const __m256i x = lanes.next(v);
        ones_a[v] = _mm256_add_epi64(ones_a[v], popcount_low32(_mm256_and_si256(x, lanes.next(v))));
      }
    for (int i = 0; i < k; ++i)
      for (int v = 0; v < kVectors; ++v) {
        const __m256i x = lanes.next(v);
        ones_b[v] = _mm256_add_epi64(ones_b[v], popcount_low32(_mm256_and_si256(x, lanes.next(v))));
      }
    if (r != 0) {
      for (int v = 0; v < kVectors; ++v) {
        if (layout.shared_tail) {
          const __m256i t = lanes.next(v);
          const __m256i ta = _mm256_and_si256(_mm256_and_si256(t, _mm256_srli_epi64(t, r)), tail_mask);
          const __m256i tb = _mm256_and_si256(
              _mm256_and_si256(_mm256_srli_epi64(t, 2 * r), _mm256_srli_epi64(t, 3 * r)), tail_mask);
          ones_a[v] = _mm256_add_epi64(ones_a[v], popcount_low32(ta));
          ones_b[v] = _mm256_add_epi64(ones_b[v], popcount_low32(tb));
        } else {
          const __m256i a0 = lanes.next(v), a1 = lanes.next(v);
          ones_a[v] = _mm256_add_epi64(ones_a[v], popcount_low32(_mm256_and_si256(_mm256_and_si256(a0, a1), tail_mask)));
          const __m256i b0 = lanes.next(v), b1 = lanes.next(v);
          ones_b[v] = _mm256_add_epi64(ones_b[v], popcount_low32(_mm256_and_si256(_mm256_and_si256(b0, b1), tail_mask)));
        }
      }
    }
    for (int v = 0; v < kVectors; ++v) {
      extremes[v].update(ones_a[v], battle_a[v]);
      extremes[v].update(ones_b[v], _mm256_add_epi64(battle_a[v], one));
      battle_a[v] = _mm256_add_epi64(battle_a[v], two);
      alignas(32) uint64_t counts_a[4], counts_b[4];
      _mm256_store_si256(reinterpret_cast<__m256i*>(counts_a), ones_a[v]);
      _mm256_store_si256(reinterpret_cast<__m256i*>(counts_b), ones_b[v]);
      for (int i = 0; i < 4; ++i) {
        ++histogram[counts_a[i]];
        ++histogram[counts_b[i]];
      }
    }
  }
  for (const auto& e : extremes) e.fold_into(tally);
}

} // namespace graveler::cpu
