// playouts_cpu.hpp - snake's CPU playouts: one game at a time on a copy of the start's bitset, cut to
// the words the dimension uses.
#pragma once

#include <cstdint>

#include "gsdk/gsdk_plugin.h"
#include "rules/random_snake.hpp"
#include "rules/snake_state.hpp"

namespace snake::cpu {

// Playouts [first, first + count) of seed from start, recorded into summary (bin = length).
void playouts(const Rules& rules, Policy policy, const State& start, uint64_t seed, uint64_t first, uint64_t count,
              gsdk_playout_summary& summary);

} // namespace snake::cpu
