// perft_cpu.hpp - snake's CPU perft (gsdk.cpu_perft.v1): a depth-first recursion over the rules of
// rules/snake_state.hpp, the last ply counted from the legal mask without playing it.
#pragma once

#include <cstdint>

#include "rules/snake_state.hpp"

namespace snake::cpu {

// The move sequences of exactly `depth` moves from s (1 at depth 0; a snake with no move adds nothing below it).
uint64_t perft(const Rules& rules, const State& s, uint32_t depth);

} // namespace snake::cpu
