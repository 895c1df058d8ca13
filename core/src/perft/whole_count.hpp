// whole_count.hpp - one uninterrupted CPU count of a perft subtree: the plugin's CPU perft table, or the generic
// recursion through the per-state table. Internal to the core's perft.
#pragma once

#include "gsdk/core/perft/perft.hpp"

namespace gsdk::core {

// perft(state, depth). Throws std::runtime_error with the plugin's message when its table fails.
uint128 count_whole(const GameInstance& game, bool plugin_table, const StateBlob& state, uint32_t depth);

} // namespace gsdk::core
