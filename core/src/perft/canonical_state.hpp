// canonical_state.hpp - a state's canonical bytes for hashed perft: the game's gsdk.perft_keys.v1 table when it has
// one, else the bytes as they are. Internal to the core's perft.
#pragma once

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

// In place, on the host.
inline void make_canonical(const GameInstance& game, StateBlob& state) {
  if (game.has_canonical_states()) game.canonical_states(state.data(), 1, state.data());
}

// The game's device entry for canonical states, or null.
inline auto cuda_canonical_entry(const GameInstance& game) -> decltype(gsdk_perft_keys::cuda_canonical) {
  return game.tables().perft_keys ? game.tables().perft_keys->cuda_canonical : nullptr;
}

} // namespace gsdk::core
