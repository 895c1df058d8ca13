// perft_cpu.hpp - othello's CPU perft: the portable recursion, and one whose last two plies run on
// AVX-512 (a position's children eight at a time; call only after a run-time check). Both count
// exactly what rules/position.hpp defines.
#pragma once

#include <cstdint>

#include "rules/position.hpp"

namespace othello::cpu {

uint64_t perft_portable(const Position& p, uint32_t depth, Convention c);
uint64_t perft_avx512(const Position& p, uint32_t depth, Convention c);

} // namespace othello::cpu
