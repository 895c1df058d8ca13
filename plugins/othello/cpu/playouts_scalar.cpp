// playouts_scalar.cpp - the portable CPU playouts (one game at a time) and the run-time choice of kernel.
#include "gsdk/playout_summary.hpp"
#include "playouts_cpu.hpp"
#include "rules/random_game.hpp"

namespace othello::cpu {

int32_t best_simd_level() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("bmi2")) return GSDK_SIMD_AVX512;
#endif
  return GSDK_SIMD_SCALAR;
}

void playouts_scalar(const Position& start, uint64_t seed, uint64_t first, uint64_t count, PlayoutPolicy policy,
                     gsdk_playout_summary& summary) {
  for (uint64_t k = first; k < first + count; ++k)
    gsdk::record_playout(summary, random_game(start, seed, k, policy), k, -64);
}

} // namespace othello::cpu
