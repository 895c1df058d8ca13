// battles_scalar.cpp - the scalar reference path (and the edges of ranges the SIMD kernels leave).
#include "battles_cpu.hpp"

namespace graveler::cpu {

void tally_pairs_scalar(const BattleLayout& layout, uint64_t seed, uint64_t first_pair, uint64_t pairs,
                        BattleTally& tally) {
  if (pairs == 0) return;
  gsdk::rng::Mwc64x g = gsdk::rng::Mwc64x::at(seed, first_pair * static_cast<uint64_t>(layout.words_per_pair));
  for (uint64_t q = first_pair; q < first_pair + pairs; ++q) {
    int a, b;
    count_pair(g, layout, a, b);
    tally.record(a, 2 * q);
    tally.record(b, 2 * q + 1);
  }
}

} // namespace graveler::cpu
