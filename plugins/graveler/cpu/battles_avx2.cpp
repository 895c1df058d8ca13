// battles_avx2.cpp - graveler's AVX2 kernel for processors without AVX-512 (AVX2 code in an
// instruction-set region, gsdk/isa.hpp; only called after a run-time check). Same lanes, layout and bookkeeping as the
// AVX-512 kernel, 4 lanes a vector; AVX2 has no vector popcount, so bytes are counted with a nibble table (vpshufb) and
// summed per lane with vpsadbw.
#include <immintrin.h>

#include "battles_cpu.hpp"
#include "gsdk/isa.hpp"
#include "lane_bookkeeping.hpp"

GSDK_BEGIN_AVX2

namespace graveler::cpu {

namespace {

constexpr int kVectors = 4;
constexpr int kLanes = kVectors * 4;
static_assert(kLanes == static_cast<int>(kAvx2Lanes));

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

} // namespace

void tally_pairs_avx2(const BattleLayout& layout, uint64_t seed, uint64_t first_pair, uint64_t pairs_per_lane,
                      BattleTally& tally) {
  const uint64_t words = static_cast<uint64_t>(layout.words_per_pair);
  const uint64_t s0 = gsdk::rng::mwc64x_seed_state(seed);
  Lanes lanes;
  for (int v = 0; v < kVectors; ++v) {
    alignas(32) uint64_t start[4];
    for (int i = 0; i < 4; ++i)
      start[i] = gsdk::rng::mwc64x_jump(s0, (first_pair + static_cast<uint64_t>(v * 4 + i) * pairs_per_lane) * words);
    lanes.state[v] = _mm256_load_si256(reinterpret_cast<const __m256i*>(start));
  }

  const int k = layout.full_words, r = layout.tail_rolls;
  const __m256i tail_mask = _mm256_set1_epi64x(gsdk::bits::low_mask32(r));
  PairHistogram histogram;
  LaneExtremes extremes(kLanes);
  alignas(32) uint64_t indices[kLanes];
  alignas(32) uint32_t block_max[2 * kLanes], block_min[2 * kLanes];

  for (uint64_t block_begin = 0, block = 0; block_begin < pairs_per_lane;
       block_begin += LaneExtremes::kBlockPairs, ++block) {
    const uint64_t block_end = std::min(block_begin + LaneExtremes::kBlockPairs, pairs_per_lane);
    __m256i high[kVectors], low[kVectors];
    for (int v = 0; v < kVectors; ++v) {
      high[v] = _mm256_setzero_si256();
      low[v] = _mm256_set1_epi32(-1);
    }
    for (uint64_t step = block_begin; step < block_end; ++step) {
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
          __m256i ta, tb;
          if (layout.shared_tail) {
            const __m256i t = lanes.next(v);
            ta = _mm256_and_si256(_mm256_and_si256(t, _mm256_srli_epi64(t, r)), tail_mask);
            tb = _mm256_and_si256(_mm256_and_si256(_mm256_srli_epi64(t, 2 * r), _mm256_srli_epi64(t, 3 * r)), tail_mask);
          } else {
            const __m256i a0 = lanes.next(v), a1 = lanes.next(v);
            ta = _mm256_and_si256(_mm256_and_si256(a0, a1), tail_mask);
            const __m256i b0 = lanes.next(v), b1 = lanes.next(v);
            tb = _mm256_and_si256(_mm256_and_si256(b0, b1), tail_mask);
          }
          ones_a[v] = _mm256_add_epi64(ones_a[v], popcount_low32(ta));
          ones_b[v] = _mm256_add_epi64(ones_b[v], popcount_low32(tb));
        }
      }
      // Counts are clean 64-bit lanes here (popcount_low32 masks), so 32-bit max/min see zeros above.
      for (int v = 0; v < kVectors; ++v) {
        _mm256_store_si256(reinterpret_cast<__m256i*>(indices + 4 * v),
                           _mm256_or_si256(_mm256_slli_epi64(ones_a[v], 8), ones_b[v]));
        high[v] = _mm256_max_epu32(high[v], _mm256_max_epu32(ones_a[v], ones_b[v]));
        low[v] = _mm256_min_epu32(low[v], _mm256_min_epu32(ones_a[v], ones_b[v]));
      }
      histogram.add(indices, kLanes);
    }
    for (int v = 0; v < kVectors; ++v) {
      _mm256_store_si256(reinterpret_cast<__m256i*>(block_max + 8 * v), high[v]);
      _mm256_store_si256(reinterpret_cast<__m256i*>(block_min + 8 * v), low[v]);
    }
    extremes.end_block(block_max, block_min, 2, block);
  }
  histogram.fold_into(tally);
  extremes.resolve(layout, seed, first_pair, pairs_per_lane, tally);
}

} // namespace graveler::cpu

GSDK_END_ISA
