// playouts_cpu.hpp - othello's CPU playout kernels: the portable one game at a time, and AVX-512 with
// eight games in the lanes of each vector (called only after a run-time check). Both play exactly
// random_game, so their summaries are identical.
#pragma once

#include <cstdint>

#include "gsdk/gsdk_plugin.h"
#include "rules/playout_policy.hpp"
#include "rules/position.hpp"

namespace othello::cpu {

// GSDK_SIMD_AVX512 when this processor has AVX-512 F and BMI2, else GSDK_SIMD_SCALAR.
int32_t best_simd_level();

// Playouts [first, first + count) of seed from start, recorded into summary.
void playouts_scalar(const Position& start, uint64_t seed, uint64_t first, uint64_t count, PlayoutPolicy policy,
                     gsdk_playout_summary& summary);
void playouts_avx512(const Position& start, uint64_t seed, uint64_t first, uint64_t count, PlayoutPolicy policy,
                     gsdk_playout_summary& summary);

} // namespace othello::cpu
